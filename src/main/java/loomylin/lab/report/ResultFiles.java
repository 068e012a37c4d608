package loomylin.lab.report;

import loomylin.server.cli.Csv;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The committed result files under a repository root, read once each. A file that is missing is a
 * {@link MissingResult} naming it, so that a page cannot render from nothing.
 */
final class ResultFiles {
    private final Path root;
    private final Map<Path, String> texts = new HashMap<>();
    private final Map<Path, List<Run>> runs = new HashMap<>();
    private final Map<Path, List<Map<String, String>>> tables = new HashMap<>();

    ResultFiles(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** A file's text, by its path relative to the root ("gfx/results/report.md"). */
    String text(String relative) {
        Path file = root.resolve(relative).normalize();
        return texts.computeIfAbsent(file, f -> {
            if (!Files.isRegularFile(f)) throw new MissingResult(relative);
            try {
                return Files.readString(f);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The rows of a CSV file. */
    List<Map<String, String>> csv(String relative) {
        return tables.computeIfAbsent(root.resolve(relative).normalize(), f -> Csv.parse(text(relative)));
    }

    /** The runs of a bench results.csv. */
    List<Run> runs(String relative) {
        return runs.computeIfAbsent(root.resolve(relative).normalize(), f -> csv(relative).stream().map(Run::new).toList());
    }

    /** A result file the page needs is not there. */
    static final class MissingResult extends RuntimeException {
        MissingResult(String relative) {
            super("no result file " + relative);
        }
    }
}
