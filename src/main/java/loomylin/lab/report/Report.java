package loomylin.lab.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The published pages (README.md and docs/**.md under a repository root) rendered from the committed result
 * files: each page's generated sections are made anew, the rest of the page kept as it is.
 */
final class Report {
    private final Path root;
    private final Map<String, Renderer> renderers;
    private final ResultFiles files;

    Report(Path root, Map<String, Renderer> renderers) {
        this.root = root;
        this.renderers = renderers;
        this.files = new ResultFiles(root);
    }

    /** A page whose committed text differs from its rendering, and the sections that differ. */
    record Stale(Path page, List<String> sections, String rendered) {
    }

    /** The published pages, relative to the root: README.md first, then docs/**.md by path (docs/results/*.md among them). */
    List<Path> pages() {
        List<Path> pages = new ArrayList<>();
        if (Files.isRegularFile(root.resolve("README.md"))) pages.add(Path.of("README.md"));
        Path docs = root.resolve("docs");
        if (Files.isDirectory(docs)) {
            try (Stream<Path> list = Files.walk(docs)) {
                list.filter(p -> p.getFileName().toString().endsWith(".md") && Files.isRegularFile(p)).map(p -> root.relativize(p)).sorted().forEach(pages::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return pages;
    }

    /** Every page whose generated sections differ from what the result files give now. */
    List<Stale> stale() {
        List<Stale> stale = new ArrayList<>();
        for (Path page : pages()) {
            String text = read(page);
            Page context = new Page(page, files);
            List<String> differing = new ArrayList<>();
            String rendered = GeneratedSections.apply(text, page.toString(), (section, current) -> {
                String now = GeneratedSections.render(section, context, renderers);
                if (!now.equals(current)) differing.add(section.name());
                return now;
            });
            if (!rendered.equals(text)) stale.add(new Stale(page, differing, rendered));
        }
        return stale;
    }

    /** Writes every stale page; returns them. */
    List<Stale> write() {
        List<Stale> stale = stale();
        for (Stale s : stale) {
            try {
                Files.writeString(root.resolve(s.page()), s.rendered());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return stale;
    }

    private String read(Path page) {
        try {
            return Files.readString(root.resolve(page));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
