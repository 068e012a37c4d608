package loomylin.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published pages are what the committed result files give: rendering README.md and docs/**.md from
 * gfx/results/** changes nothing. When this fails, a result file or a page changed without the other:
 * run {@code java -jar target/loomylin.jar report} and commit the pages it rewrites.
 */
class ReportTest {
    @Test
    void committedPagesAreRenderedFromTheCommittedResults() {
        Report report = new Report(Path.of("."), Renderers.all());
        List<Report.Stale> stale = report.stale();
        assertEquals("", stale.stream().map(s -> s.page() + " (" + String.join(", ", s.sections()) + ")").collect(Collectors.joining("; ")),
                "pages that differ from gfx/results; run: java -jar target/loomylin.jar report");
    }

    /** report's flags read once: --check and --root, or their variables; a mistake is one usage line. */
    @Test
    void itsFlagsAreReadOnceWithTheirVariables() {
        assertEquals(new ReportCommand.Options(false, Path.of(".")), ReportCommand.Options.of(loomylin.server.cli.Flags.parse(new String[0], ReportCommand.FLAGS, java.util.Map.of())));
        assertEquals(new ReportCommand.Options(true, Path.of("elsewhere")), ReportCommand.Options.of(loomylin.server.cli.Flags.parse(new String[] {"--root", "elsewhere"},
                ReportCommand.FLAGS, java.util.Map.of("LOOMYLIN_CHECK", "true", "LOOMYLIN_ROOT", "ignored"))));
        loomylin.server.cli.UsageError e = org.junit.jupiter.api.Assertions.assertThrows(loomylin.server.cli.UsageError.class,
                () -> loomylin.server.cli.Flags.parse(new String[] {"--chek"}, ReportCommand.FLAGS, java.util.Map.of()));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void theFrontPageAndTheResultsPagesHaveGeneratedSections() throws IOException {
        assertFalse(GeneratedSections.sections(Files.readString(Path.of("README.md")), "README.md").isEmpty(), "README.md renders its numbers");
        List<Path> results;
        try (var list = Files.list(Path.of("docs/results"))) {
            results = list.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        assertTrue(new Report(Path.of("."), Renderers.all()).pages().containsAll(results), "report renders every page of docs/results: " + results);
        int sections = 0;
        for (Path page : results) sections += GeneratedSections.sections(Files.readString(page), page.toString()).size();
        assertTrue(sections > 5, "docs/results/*.md render their tables: " + sections + " sections");
    }

    /** A page in a directory under docs/ is rendered too, its links made from where it sits. */
    @Test
    void aPageUnderADocsDirectoryIsRenderedWithLinksFromIt(@TempDir Path root) throws IOException {
        Path dir = Files.createDirectories(root.resolve("gfx/results"));
        Files.writeString(dir.resolve("results.csv"), """
                pool,endpoint,concurrency,mode,offered_rps,client,repeat,rps,p99_ms,cpu_ms_per_req,peak_threads,errors
                loom,wait-blocking?ms=100,50,closed,,hey,1,485.1,109,0.76,27,0
                """);
        Path page = Files.createDirectories(root.resolve("docs/results")).resolve("waits.md");
        Files.writeString(page, "# x\n\n<!-- generated:pools gfx/results wait-blocking?ms=100 -->\n<!-- /generated:pools -->\n");
        Files.writeString(root.resolve("README.md"), "# x\n");
        assertEquals(List.of(Path.of("README.md"), Path.of("docs/results/waits.md")), new Report(root, Renderers.all()).pages());
        ReportCommand.run(root, false, System.out);
        assertTrue(Files.readString(page).contains("(../../gfx/results/results.csv)"), Files.readString(page));
    }

    @Test
    void aChangedResultMakesThePageStaleAndNamesIt(@TempDir Path root) throws IOException {
        Path dir = Files.createDirectories(root.resolve("gfx/results"));
        Files.writeString(dir.resolve("results.csv"), """
                pool,endpoint,concurrency,mode,offered_rps,client,repeat,rps,p99_ms,cpu_ms_per_req,peak_threads,errors
                loom,wait-blocking?ms=100,50,closed,,hey,1,485.1,109,0.76,27,0
                qtp:32,wait-blocking?ms=100,50,closed,,hey,1,274.0,298,0.65,54,0
                """);
        Files.writeString(root.resolve("README.md"), "# x\n\n<!-- generated:pools gfx/results wait-blocking?ms=100 -->\n<!-- /generated:pools -->\n\nend\n");
        ReportCommand.run(root, false, System.out);
        String rendered = Files.readString(root.resolve("README.md"));
        assertTrue(rendered.contains("| `qtp:32` | `loom` |"), rendered);
        assertTrue(rendered.contains("485 req/s, p99 109 ms, 0.76 ms CPU, 27 threads"), rendered);
        assertTrue(rendered.endsWith("<!-- /generated:pools -->\n\nend\n"), "the rest of the page is kept: " + rendered);
        assertEquals(List.of(), new Report(root, Renderers.all()).stale(), "rendering twice changes nothing");

        Files.writeString(dir.resolve("results.csv"), Files.readString(dir.resolve("results.csv")).replace("485.1", "400.0"));
        List<Report.Stale> stale = new Report(root, Renderers.all()).stale();
        assertEquals(1, stale.size());
        assertEquals(Path.of("README.md"), stale.get(0).page());
        assertEquals(List.of("pools gfx/results wait-blocking?ms=100"), stale.get(0).sections());
    }

    @Test
    void aMissingResultFileIsOneLineNamingIt(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("gfx/results"));
        Files.writeString(root.resolve("README.md"), "<!-- generated:targets gfx/results/none -->\n<!-- /generated:targets -->\n");
        ReportError e = org.junit.jupiter.api.Assertions.assertThrows(ReportError.class, () -> new Report(root, Renderers.all()).stale());
        assertEquals("README.md line 1, section 'targets gfx/results/none': no result file gfx/results/none/targets.csv", e.getMessage());
    }
}
