package loomylin.lab.engine.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.bench.Preset;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;

class TargetsTest {

    /** A closed wrk run of {@code repeat} with enough answers to decide, every request answered 2xx unless {@code errors}. */
    private static RunResult row(String pool, String endpoint, int c, int repeat, double rps, double p99, long idleKb, long peakKb, int threads, long errors) {
        return row(pool, endpoint, c, 0, repeat, rps, p99, idleKb, peakKb, threads, errors);
    }

    private static RunResult row(String pool, String endpoint, int c, int rate, int repeat, double rps, double p99, long idleKb, long peakKb,
                                 int threads, long errors) {
        return row(new RunSpec(PoolKind.parse(pool), Endpoint.parse(endpoint), c, rate, rate > 0 ? Client.OHA : Client.WRK, repeat),
                Math.max(RunResult.MIN_ANSWERS, (long) RunResult.MIN_ANSWERS_PER_CLIENT * c), rps, p99, idleKb, peakKb, threads, errors);
    }

    private static RunResult row(RunSpec spec, long sent, double rps, double p99, long idleKb, long peakKb, int threads, long errors) {
        // CPU: 1000 / rps ms per request, scaled with the throughput so that P2's CPU ratio varies
        return new RunResult(spec, "java", sent, sent, sent - errors, errors, 1, rps, rps, new Measured.Latency(1, 2, p99, p99 * 1.5, p99 * 2),
                sent / rps, idleKb, peakKb, 1, threads, 0.1, 5, 50, false, 0.0);
    }

    @Test
    void aClientLimitedRunMakesItsTargetNotDecidedNeverPass() {
        List<RunResult> rows = new ArrayList<>(aFullBench());
        Targets.Target before = Targets.p2(Config.of(rows)).get(0);
        rows.replaceAll(r -> r.spec().endpoint().toString().equals(Preset.CPU) && r.spec().concurrency() == 50 && r.spec().repeat() == 1
                && r.spec().pool().toString().equals("loom")
                ? new RunResult(r.spec(), "java", r.requests(), r.responses(), r.ok(), r.errors(), 1, r.rps(), r.warmupRps(), r.latency(),
                        r.cpuS(), r.idleRssKb(), r.peakRssKb(), 1, r.peakThreads(), 0.1, 95, 50, true, 0.0)
                : r);
        Targets.Target p2 = Targets.p2(Config.of(rows)).get(0);
        assertEquals("NOT DECIDED", p2.result(), "was " + before.result() + " with the same figures unmarked");
        assertTrue(p2.invalid().contains("1 client-limited of"), p2.invalid());
        assertEquals("n/a", p2.valueText(), "no figure from a marked run, not even beside its verdict");
    }

    @Test
    void aRunWithTooFewAnswersDecidesNothing() {
        List<RunResult> rows = new ArrayList<>(aFullBench());
        rows.removeIf(r -> r.spec().endpoint().toString().equals(Preset.CPU) && r.spec().concurrency() == 50 && r.spec().repeat() == 1
                && r.spec().pool().toString().equals("loom"));
        // 50 clients, 999 answers each: plenty per client, but under the 2,000 a window needs
        rows.add(row(new RunSpec(PoolKind.parse("loom"), Endpoint.parse(Preset.CPU), 50, 0, Client.WRK, 1), 1_999, 950, 125, 0, 0, 25, 0));
        Targets.Target p2 = Targets.p2(Config.of(rows)).get(0);
        assertEquals("TOO SHORT", p2.result());
        assertTrue(p2.invalid().contains("fewer than 2000 answers"), p2.invalid());
    }

    @Test
    void aClosedRunWithTooFewAnswersPerClientDecidesNothing() {
        RunSpec manyClients = new RunSpec(PoolKind.parse("loom"), Endpoint.parse("wait-blocking?ms=100"), 2000, 0, Client.WRK, 1);
        assertTrue(row(manyClients, 39_999, 5000, 200, 0, 0, 25, 0).tooShort(), "19.99 answers per client");
        assertFalse(row(manyClients, 40_000, 5000, 200, 0, 0, 25, 0).tooShort(), "20 answers per client");
        RunSpec open = new RunSpec(PoolKind.parse("loom"), Endpoint.parse("wait-blocking?ms=100"), 2000, 100, Client.OHA, 1);
        assertFalse(row(open, 3_000, 100, 200, 0, 0, 25, 0).tooShort(), "open loop: connections are a pool, not clients");
    }

    @Test
    void aHeyRunIsACountAndDecidesNoTarget() {
        List<RunResult> rows = new ArrayList<>();
        for (int r = 1; r <= 3; r++) {
            for (String pool : List.of("qtp:4", "loom")) {
                RunSpec spec = new RunSpec(PoolKind.parse(pool), Endpoint.parse(Preset.CPU), 50, 0, Client.HEY, r);
                rows.add(row(spec, 5_000, 1000, 100, 0, 0, 25, 0));
            }
        }
        Targets.Target p2 = Targets.p2(Config.of(rows)).get(0);
        assertEquals("NOT TIMED", p2.result());
    }

    /** P2 over two invocations of three repeats: qtp:4 at 1000 req/s, loom at {@code first} then {@code second}. */
    private static Targets.Target p2OverTwoInvocations(double first, double second) {
        List<RunResult> rows = new ArrayList<>();
        for (int invocation = 1; invocation <= 2; invocation++) {
            for (int r = 1; r <= 3; r++) {
                rows.add(row("qtp:4", Preset.CPU, 50, r, 1000, 100, 0, 0, 25, 0).inInvocation(invocation));
                rows.add(row("loom", Preset.CPU, 50, r, invocation == 1 ? first : second, 100, 0, 0, 25, 0).inInvocation(invocation));
            }
        }
        return Targets.evaluate(rows, 2).stream().filter(t -> t.id().equals("P2")).findFirst().orElseThrow();
    }

    @Test
    void invocationsThatDisagreeReadNoiseWhateverTheirRepeatsSay() {
        Targets.Target p2 = p2OverTwoInvocations(1000, 1250);
        assertEquals(List.of(1.0, 1.25), p2.invocationMedians());
        assertEquals("NOISE", p2.result());
    }

    @Test
    void invocationsThatAgreeKeepTheVerdictOfTheirRepeats() {
        Targets.Target p2 = p2OverTwoInvocations(1000, 1050);
        assertEquals(2, p2.invocationMedians().size());
        assertEquals(p2OverTwoInvocations(1000, 1000).result(), p2.result());
        assertTrue(p2.invocationsAgree());
    }

    private static List<RunResult> aFullBench() {
        List<RunResult> rows = new ArrayList<>();
        for (int r = 1; r <= 3; r++) {
            rows.add(row("loom", "wait-blocking?ms=100", 50, r, 485 + 5 * r, 110, 0, 0, 30, 0));
            rows.add(row("qtp:4", "wait-async?ms=100", 50, r, 497, 110, 0, 0, 25, 0));
            rows.add(row("qtp:4", Preset.CPU, 50, r, 900, 100, 0, 0, 25, 0));
            rows.add(row("loom", Preset.CPU, 50, r, 950, 125, 0, 0, 31, 0));
            rows.add(row("loom", "wait-blocking?ms=100", 2000, r, 8000 + 1000 * r, 300, 0, 0, 33, 0));
            rows.add(row("loom", "wait-async?ms=100", 2000, r, 10000, 250, 0, 0, 29, 0));
            rows.add(row("loom", "hops-blocking", 1000, r, 2100, 600, 0, 0, 27, 0));
            rows.add(row("loom", "hops-async", 1000, r, 2000, 650, 0, 0, 27, 0));
            rows.add(row("loom", "wait-blocking?ms=1000", 2000, r, 1900, 1100, 600_000, 640_000, 28, 0));
            rows.add(row("qtp:2500", "wait-blocking?ms=1000", 2000, r, 1800, 1200, 700_000, 800_000, 2530, 0));
        }
        return rows;
    }

    private static List<String> verdicts(List<Targets.Target> targets) {
        return targets.stream().map(t -> t.id() + " " + t.valueText() + " " + t.result()).toList();
    }

    @Test
    void verdictsReadTheWholeRangeOfRepeats() {
        List<String> v = verdicts(Targets.evaluate(aFullBench(), 2));
        assertEquals("P1 0.996 (0.986-1.006) NOISE", v.get(0)); // 490/497 misses, 495/497 and 500/497 pass
        assertEquals("P2 1.056 PASS", v.get(1));
        assertEquals("P2 0.947 PASS", v.get(2));
        assertEquals("P3 1.000 (0.900-1.100) NOISE", v.get(3));
        assertEquals("P4 1.050 PASS", v.get(4)); // 2100 of 2000 req/s
        assertEquals("P4 0.952 PASS", v.get(5)); // CPU per request: 1000 / 2100 of 1000 / 2000 ms
        assertEquals("P5 33 MISS", v.get(6));
        assertEquals("P6 0.400 PASS", v.get(7));
        assertEquals("P10 0.500 (0.450-0.550) MISS", v.get(v.size() - 1));
    }

    @Test
    void aRunWithErrorsNeverPasses() {
        List<RunResult> rows = new ArrayList<>(aFullBench());
        rows.add(row("qtp:4", Preset.CPU, 50, 4, 900, 100, 0, 0, 25, 3));
        rows.add(row("loom", Preset.CPU, 50, 4, 950, 125, 0, 0, 25, 0));
        Targets.Target p2 = Targets.p2(Config.of(rows)).get(0);
        assertEquals("ERRORS", p2.result());
        assertTrue(p2.invalid().contains("3 requests without a 2xx answer"), p2.invalid());
        // a reference with no answers at all cannot give an Infinity that passes either
        List<RunResult> none = List.of(row("loom", "wait-blocking?ms=100", 50, 1, 495, 110, 0, 0, 30, 0),
                row("qtp:4", "wait-async?ms=100", 50, 1, 0, Double.NaN, 0, 0, 25, 1000));
        assertEquals("ERRORS", Targets.p1(Config.of(none)).result());
    }

    @Test
    void openLoopTargetsReadTheOfferedRates() {
        List<RunResult> rows = new ArrayList<>();
        int[] rates = {100, 200, 250, 300, 350, 450, 600};
        for (int rate : rates) {
            double qtpAchieved = Math.min(rate, 290);
            rows.add(row("qtp:32", "wait-blocking?ms=100", 1000, rate, 1, qtpAchieved, rate <= 250 ? 120 : 4000, 0, 0, 40, 0));
            rows.add(row("loom", "wait-blocking?ms=100", 1000, rate, 1, rate, 110, 0, 0, 27, 0));
            rows.add(row("qtp-vt:8", "wait-blocking?ms=100", 1000, rate, 1, rate, 112, 0, 0, 30, 0));
        }
        List<Config> configs = Config.of(rows);
        assertEquals(List.of("P7 120 PASS", "P7 110 PASS", "P7 112 PASS"), verdicts(Targets.p7(configs)));
        assertEquals(List.of("P8 4000 PASS", "P8 110 PASS"), verdicts(Targets.p8(configs)));
        assertEquals("P9 0.967 PASS", verdicts(List.of(Targets.p9(configs))).get(0)); // 290 of Little's 300
        assertEquals(300.0, Targets.predictedKnee(PoolKind.qtp(32), 100));
        assertEquals(300.0, Targets.predictedKnee(PoolKind.parse("qtp:4-32"), 100), "a growing pool's knee is at its most threads");
        assertTrue(Double.isInfinite(Targets.predictedKnee(PoolKind.loom(), 100)));
    }

    @Test
    void theThreadBoundFollowsTheCores() {
        assertEquals("P5 33 PASS", verdicts(List.of(Targets.p5(Config.of(aFullBench()), 8))).get(0));
    }

    @Test
    void missingRunsAreNotApplicableNotMisses() {
        List<Targets.Target> none = Targets.evaluate(List.of(row("qtp:4", "computational?iterations=7", 50, 1, 900, 100, 0, 0, 25, 0)), 2);
        assertTrue(none.stream().allMatch(t -> t.result().equals("n/a")), verdicts(none).toString());
    }

    @Test
    void waitsCompareOnlyAtTheSameLength() {
        List<RunResult> rows = List.of(row("loom", "wait-blocking?ms=100", 2000, 1, 9000, 1, 0, 0, 1, 0),
                row("loom", "wait-async?ms=50", 2000, 1, 9000, 1, 0, 0, 1, 0));
        assertEquals("n/a", Targets.p3(Config.of(rows)).result());
        assertEquals("PASS", Targets.p3(Config.of(List.of(row("loom", "wait-blocking", 2000, 1, 9600, 1, 0, 0, 1, 0),
                row("loom", "wait-async?ms=100", 2000, 1, 10000, 1, 0, 0, 1, 0)))).result()); // no ms = the default 100
    }

    @Test
    void writesTargetsCsv(@TempDir Path dir) throws IOException {
        List<Targets.Target> targets = Targets.evaluate(aFullBench(), 2);
        Targets.writeCsv(dir.resolve("targets.csv"), targets);
        List<String> lines = Files.readAllLines(dir.resolve("targets.csv"));
        assertEquals("id,what,median,min,max,goal,result,detail,runs,invocation_medians", lines.get(0));
        assertEquals(1 + targets.size(), lines.size());
        assertTrue(lines.get(1).startsWith("P1,"), lines.get(1));
        assertTrue(lines.get(1).contains(",0.9960,0.9859,1.0060,>= 0.99,NOISE,"), lines.get(1));
    }
}
