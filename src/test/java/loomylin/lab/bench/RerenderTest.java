package loomylin.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import loomylin.lab.engine.output.Charts;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bench --rerender} of plain benches, on copies of committed result directories whose report, targets and
 * charts are deleted first: each is written again from results.csv and provenance.json alone.
 */
class RerenderTest {
    private static final Path RESULTS = Path.of("gfx", "results");
    private static final Pattern CHART = Pattern.compile("!\\[[^\\]]*]\\(([^)]+\\.png)\\)");

    /**
     * fair: closed loop, two invocations, a marked endpoint beside an unmarked one; latency: open loop, its knees;
     * qtp4-threads: every run marked (too short), so no chart of it is one the rules must draw.
     */
    @ParameterizedTest
    @CsvSource({"fair, true", "latency, true", "qtp4-threads, false"})
    void aCommittedBenchIsWrittenAgainFromItsResults(String name, boolean unmarkedCharts, @TempDir Path dir) throws IOException {
        Path committed = RESULTS.resolve(name);
        copyWithoutSummaries(committed, dir);
        Bench.main(new String[] {"--rerender", "--out", dir.toString()});

        String report = Files.readString(dir.resolve("report.md"));
        Provenance provenance = Provenance.read(committed);
        assertTrue(report.contains("Command: `" + provenance.command() + "`"), report);
        assertTrue(report.contains("| Commit | `" + provenance.commit().hash() + "`"), report);
        List<RunResult> rows = RunResult.TABLE.read(dir.resolve("results.csv"));
        everyConfigurationIsInATable(report, rows);
        assertEquals(targetIds(committed), targetIds(dir), "the same targets as the bench wrote");
        assertEquals(unmarkedCharts, theChartsAreDrawn(Files.readString(committed.resolve("report.md")), report, rows, dir) > 0,
                "charts of unmarked runs checked");
    }

    /**
     * Every chart the committed report names is drawn again and named, where its endpoint has a run the bench did not
     * mark (a chart of marked runs alone is the rules' to draw or not); every chart the new report names exists. Returns
     * how many of the committed charts had an unmarked run.
     */
    private static int theChartsAreDrawn(String committed, String report, List<RunResult> rows, Path dir) {
        List<String> before = charts(committed);
        if (rows.stream().anyMatch(r -> r.marks().isEmpty())) assertFalse(before.isEmpty(), "the committed report names its charts"); // none when every run is marked
        int checked = 0;
        for (RunSpec s : rows.stream().map(RunResult::spec).distinct().toList()) {
            String chart = Charts.fileName(s.endpoint(), s.open());
            boolean unmarked = rows.stream().anyMatch(r -> r.spec().endpoint().equals(s.endpoint()) && r.spec().open() == s.open() && r.marks().isEmpty());
            if (!before.contains(chart) || !unmarked) continue;
            assertTrue(Files.isRegularFile(dir.resolve(chart)) && charts(report).contains(chart), chart + " is not drawn again in " + dir);
            checked++;
        }
        for (String chart : charts(report)) assertTrue(Files.isRegularFile(dir.resolve(chart)), "the report names " + chart + ", not in " + dir);
        return checked;
    }

    private static List<String> charts(String report) {
        List<String> out = new java.util.ArrayList<>();
        Matcher m = CHART.matcher(report);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    /**
     * A row whose configuration the command's plan does not hold (the command names one pool and one endpoint, the rows
     * two of each, as when a preset changed since) is still in a table, under its endpoint's heading.
     */
    @Test
    void aRowOutsideTheCommandsPlanIsStillReported(@TempDir Path dir) throws IOException {
        copyWithoutSummaries(RESULTS.resolve("fair"), dir);
        Provenance p = Provenance.read(dir);
        String narrowed = p.command().replace("--pools loom,qtp:200 --endpoints wait-blocking?ms=100,mixed?cpu=1000&sleep=0&file=0 ",
                "--pools loom --endpoints wait-blocking?ms=100 ");
        assertFalse(narrowed.equals(p.command()), p.command());
        withCommand(dir, narrowed);
        List<RunResult> rows = RunResult.TABLE.read(dir.resolve("results.csv"));
        assertTrue(rows.stream().anyMatch(r -> r.spec().pool().toString().equals("qtp:200") && r.spec().endpoint().route().equals("mixed")),
                "fair has qtp:200 /mixed rows");
        Rerender.plain(dir, quiet());
        everyConfigurationIsInATable(Files.readString(dir.resolve("report.md")), rows);
    }

    @Test
    void noResultsIsOneLine(@TempDir Path dir) throws IOException {
        copyWithoutSummaries(RESULTS.resolve("qtp4-threads"), dir);
        Files.delete(dir.resolve("results.csv"));
        assertOneLine(dir, "no results.csv in " + dir);
    }

    @Test
    void noProvenanceIsOneLine(@TempDir Path dir) throws IOException {
        copyWithoutSummaries(RESULTS.resolve("qtp4-threads"), dir);
        Files.delete(dir.resolve(Provenance.FILE));
        assertOneLine(dir, "no provenance.json in " + dir);
    }

    /** A recorded command the rerender cannot use is refused in one line that says why: each case a command and the line's words. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "java -jar loomylin.jar advise --app x | command is not a bench's: 'java -jar loomylin.jar advise --app x'",
            "BENCH --pools qtp:4 --threads-per-core 2 --out x | command no longer parses: unknown flag --threads-per-core",
            "BENCH --pools qtp:4 --concurrency many | command no longer parses: --concurrency takes whole numbers",
            "BENCH --preset crossover --out x | is a --preset crossover bench, not a plain one; give --preset crossover --rerender",
            "BENCH connections --out x | command is bench connections, an experiment with a report of its own and no --rerender"})
    void aRecordedCommandItCannotUseIsRefusedInOneLine(String command, String why, @TempDir Path dir) throws IOException {
        copyWithoutSummaries(RESULTS.resolve("qtp4-threads"), dir);
        withCommand(dir, command.replace("BENCH", Rerender.COMMAND));
        assertOneLine(dir, why);
    }

    @Test
    void anotherFlagBesideRerenderIsOneLine(@TempDir Path dir) throws IOException {
        copyWithoutSummaries(RESULTS.resolve("qtp4-threads"), dir);
        UsageError e = assertThrows(UsageError.class, () -> Bench.main(new String[] {"--rerender", "--pools", "loom", "--out", dir.toString()}));
        assertEquals("--rerender reads the bench's flags from --out's provenance.json; give it --out DIR alone, not --pools", e.getMessage());
        assertFalse(Files.exists(dir.resolve("report.md")));
    }

    /** Recorded CPU lists are read, not checked against this machine (the bench ran elsewhere), and name no taskset. */
    @Test
    void recordedCpuSetsAreNotCheckedHere(@TempDir Path dir) throws IOException {
        copyWithoutSummaries(RESULTS.resolve("qtp4-threads"), dir);
        withCommand(dir, Rerender.COMMAND + " --pools qtp:4,qtp:6 --endpoints wait-blocking?ms=100 --concurrency 4,50 --repeat 1 --server-cpus 4000 --client-cpus 4001");
        Rerender.plain(dir, quiet());
        assertTrue(Files.readString(dir.resolve("report.md")).contains("--server-cpus 4000"));
    }

    private static void assertOneLine(Path dir, String expected) {
        UsageError e = assertThrows(UsageError.class, () -> Bench.main(new String[] {"--rerender", "--out", dir.toString()}));
        assertTrue(e.getMessage().startsWith("--rerender: ") && e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("report.md")), "nothing written");
    }

    /** Every configuration of the rows has a line (level, pool, client) in its endpoint's table. */
    private static void everyConfigurationIsInATable(String report, List<RunResult> rows) {
        assertFalse(rows.isEmpty());
        for (RunResult r : rows) {
            RunSpec s = r.spec();
            String heading = "## /" + s.endpoint() + (s.open() ? " (open loop)" : "") + "\n";
            int at = report.indexOf(heading);
            assertTrue(at >= 0, "no section " + heading + " in\n" + report);
            int next = report.indexOf("\n## ", at + heading.length());
            String section = report.substring(at, next < 0 ? report.length() : next);
            assertTrue(section.contains("\n| " + s.level() + " | " + s.pool() + " | " + s.client().label() + " | "),
                    s.key() + " is in no table of\n" + section);
        }
    }

    private static List<String> targetIds(Path dir) throws IOException {
        return Files.readAllLines(dir.resolve("targets.csv")).stream().skip(1).map(l -> l.substring(0, l.indexOf(','))).toList();
    }

    /** The committed directory's files but its report, targets and charts. */
    private static void copyWithoutSummaries(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) Files.copy(f, to.resolve(f.getFileName()));
        }
        Files.delete(to.resolve("report.md"));
        Files.delete(to.resolve("targets.csv"));
        try (Stream<Path> pngs = Files.list(to)) {
            for (Path png : pngs.filter(p -> p.toString().endsWith(".png")).toList()) Files.delete(png);
        }
    }

    /** The directory's provenance with another command. */
    private static void withCommand(Path dir, String command) throws IOException {
        Provenance p = Provenance.read(dir);
        new Provenance(p.date(), command, p.commit(), p.out(), p.host(), p.jdk(), p.jetty(), p.javalin(), p.tools(), p.cpuSets(), p.durationS()).write(dir);
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
