package loomylin.lab.experiment.fibers;

import loomylin.lab.engine.run.Calibration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.run.Windows;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.UsageError;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench seed004: the mix turned into /mixed parameters, the seed's verdicts, and a smoke-sized real run. */
class FibersExperimentsTest {

    @Test
    void theMixBecomesParametersInProportionAndTheFileIsCapped() {
        Calibration cal = new Calibration(1000, 10_000);
        loomylin.lab.engine.run.Calibration.Mix exp1 = FibersExperiments.EXPERIMENTS.get(0);
        assertEquals("mixed?cpu=500&sleep=8&file=15000", cal.query(exp1, 10, FibersExperiments.FILE_CAP)); // 0.5 ms CPU, 8 ms sleep, 1.5 ms read
        assertEquals("mixed?cpu=50000&sleep=800&file=1000", cal.query(exp1, 1000, 1000)); // 1.5 MB asked, 1000 allowed
        assertEquals("mixed?cpu=100&sleep=10&file=4000", cal.query(FibersExperiments.EXPERIMENTS.get(1), 10, FibersExperiments.FILE_CAP));
    }

    @Test
    void theVerdictComparesLoomWithQtp1000AndCountsIncompleteOneSecondRuns() {
        List<FibersExperiments.Row> rows = new ArrayList<>();
        for (int ms : FibersExperiments.REQUEST_MS) {
            for (int c : List.of(100, 1000, 2000)) {
                rows.add(new FibersExperiments.Row(1, 1, ms, c, "loom", "q", 30 * c, 0, 100, 1, 2, null, 20, 20, 0));
                boolean failed = ms == 1000 && c == 2000;
                rows.add(new FibersExperiments.Row(1, 1, ms, c, "qtp:1000", "q", 30 * c, ms == 1000 && c == 1000 ? 5 : 0, c == 100 ? 150 : 90, 1, 2,
                        failed ? "server exited" : null, 20, 20, 0));
            }
        }
        String verdict = FibersReport.verdict(1, FibersExperiments.index(rows), List.of(100, 1000, 2000));
        assertTrue(verdict.contains("loom at or above qtp:1000 in 6 of 9 cells whose runs decide (does not hold everywhere)"), verdict);
        assertTrue(verdict.contains("qtp:1000 completed 0 of 2 of them without errors (holds)"), verdict);

        // a loom run with 19 answers per client decides nothing: its cell leaves the comparison instead of counting against loom
        rows.set(0, new FibersExperiments.Row(1, 1, 10, 100, "loom", "q", 1_900, 0, 95, 1, 2, null, 20, 20, 0));
        String without = FibersReport.verdict(1, FibersExperiments.index(rows), List.of(100, 1000, 2000));
        assertTrue(without.contains("loom at or above qtp:1000 in 6 of 8 cells whose runs decide"), without);
    }

    @Test
    void aRunWithTooFewAnswersInAllOrPerClientIsTooShort() {
        assertTrue(row(10, 1_999).tooShort(), "under 2,000 answers");
        assertTrue(!row(10, 2_000).tooShort(), "2,000 answers, 200 per client");
        assertTrue(row(1_000, 19_999).tooShort(), "under 20 per client");
        assertTrue(!row(1_000, 20_000).tooShort(), "20 per client");
        FibersExperiments.Row failed = FibersExperiments.Row.failed(1, 1, 10, 100, "loom", "q", 20, "server exited");
        assertTrue(!failed.tooShort(), "a failed run is N/A, not too short");
        assertEquals("N/A", FibersReport.cell(failed));
        assertEquals("100 (too short)", FibersReport.cell(row(1_000, 19_999)));
    }

    @Test
    void aLongRequestGetsALongerWindowAndTheEstimateCountsIt() {
        assertEquals(20, Windows.closedS(20, 10));
        assertEquals(30, Windows.closedS(20, 1000), "20 answers of 1 s each and half again");
        assertEquals(6, Windows.closedS(6, 1000), "a short window asked for stays short");
        // 2 experiments x (10 ms, 100 ms at 20 s; 1 s at 30 s) x 18 cells, each with 8 s of warm-up and the overhead
        long perCell = FibersExperiments.OVERHEAD_S + 8;
        assertEquals(2 * 18 * (20 + 20 + 30 + 3 * perCell), FibersExperiments.estimateS(20, 8, 18));
    }

    private static FibersExperiments.Row row(int c, int ok) {
        return new FibersExperiments.Row(1, 1, 10, c, "loom", "q", ok, 0, 100, 1, 2, null, 20, 20, 0);
    }

    @Test
    void fewerAnswersThanClientsIsARunThatDidNotComplete() {
        FibersExperiments.Row timedOut = new FibersExperiments.Row(1, 1, 1000, 2000, "loom", "q", 2, 0, 0.1, 20_000, 20_000, null, 30, 21, 0);
        assertEquals(1998, timedOut.unanswered());
        assertTrue(!timedOut.complete());
        assertEquals("0 (>= 1998 unanswered) (too short)", FibersReport.cell(timedOut));
        FibersExperiments.Row fine = new FibersExperiments.Row(1, 1, 10, 100, "loom", "q", 4000, 0, 400, 200, 300, null, 20, 20, 0);
        assertEquals(0, fine.unanswered());
        assertEquals("400", FibersReport.cell(fine));
    }

    @Test
    void badOverridesAreUsageErrors() {
        for (String[] args : List.of(new String[] {"--duration", "500ms"}, new String[] {"--pools", "qtp:x"}, new String[] {"--concurrency", "0"})) {
            try {
                command(args).run("test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
                throw new AssertionError("accepted " + String.join(" ", args));
            } catch (UsageError expected) {
                assertTrue(expected.getMessage().startsWith("--") || expected.getMessage().contains("qtp:x"), expected.getMessage());
            }
        }
    }

    /** {@code bench seed004 ARGS} read as the bench reads it. */
    private static Seed004Command command(String... args) {
        Seed004Command command = new Seed004Command();
        CommandLines.parse(command, args, Map.of());
        return command;
    }

    /** Smoke size: one pool, one concurrency, 1 s runs; every cell of the seed's grid of mixes and request times. */
    @IntegrationTest
    @Test
    void smokeRunWritesEveryRowAndTheSeedsTables(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("hey", "apt-get install hey");
        String[] args = {"--pools", "loom", "--concurrency", "4", "--duration", "1s", "--warmup", "1s", "--out", out.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        command(args).run("bench seed004 " + String.join(" ", args), new PrintStream(log, true, StandardCharsets.UTF_8));

        List<String> csv = Files.readAllLines(out.resolve("seed004.csv"));
        assertEquals(1 + FibersExperiments.EXPERIMENTS.size() * FibersExperiments.REQUEST_MS.size(), csv.size(), String.join("\n", csv));
        assertEquals(FibersExperiments.TABLE.header(), csv.get(0));
        List<String> header = FibersExperiments.TABLE.columnNames();
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            assertEquals(header.size(), f.length, row);
            assertEquals("1", f[header.indexOf("invocation")], "the first invocation into a new --out: " + row);
            assertEquals("1", f[header.indexOf("window_s")], "a 1 s window asked for stays 1 s: " + row);
            assertEquals("true", f[header.indexOf("too_short")], "a few hundred answers over 4 clients decide nothing: " + row);
            assertEquals("loom", f[header.indexOf("pool")], row);
            assertTrue(f[header.indexOf("query")].matches("mixed\\?cpu=\\d+&sleep=\\d+&file=\\d+"), row);
            assertTrue(Integer.parseInt(f[header.indexOf("ok")]) > 0, "some 2xx answers: " + row);
            assertEquals("0", f[header.indexOf("errors")], "no errors: " + row);
            assertEquals("", f[header.indexOf("failure")], "no failure: " + row);
        }
        String md = Files.readString(out.resolve("seed004.md"));
        assertTrue(md.contains("SHA-256 iterations per ms"), md);
        assertTrue(md.contains("## Experiment 1") && md.contains("## Experiment 2"), md);
        assertEquals(6, md.split("\\| Concurrency \\| seed fibers \\| seed kernel \\| loom \\|", -1).length - 1, "a table per experiment and request time");
        assertTrue(md.contains("not compared here"), "no qtp:1000 in the smoke run, so no verdict: " + md);
        assertTrue(md.contains("(too short)") && md.contains("6 of 6 runs were too short"), md);
        String provenance = Files.readString(out.resolve("provenance.json"));
        assertTrue(provenance.contains("\"hey\"") && provenance.contains("\"command\""), provenance);
        assertTrue(provenance.contains("\"duration_s\""), "the finished bench says how long it took: " + provenance);
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("bench: done"), log.toString(StandardCharsets.UTF_8));
    }

    /**
     * seed004.csv is written as the committed file spells it, with the invocation column first, which the committed
     * file (written before the preset ran on the Runner) lacks: its header, and its first run's line.
     */
    @Test
    void aRunIsWrittenAsTheCommittedFileSpellsIt() throws java.io.IOException {
        List<String> committed = java.nio.file.Files.readAllLines(loomylin.testing.CommittedCsv.named("seed004.csv").getFirst()).stream()
                .map(line -> (line.startsWith("experiment,") ? "invocation," : "1,") + line).toList();
        FibersExperiments.Row first = new FibersExperiments.Row(1, 1, 10, 100, "loom", "mixed?cpu=2699&sleep=8&file=3926492", 13053, 0, 644.6, 151.80, 249.20,
                null, 20, 20.25, 0.0);
        assertEquals(committed.subList(0, 2), List.of(FibersExperiments.TABLE.header(), FibersExperiments.TABLE.line(first)));
    }
}
