package loomylin.lab.experiment.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.run.Warmth;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** advise's page from given rows: held rates, knees, the verdict's direction, the caveats that apply, and what limited the runs. */
class AdvisePageTest {
    private static final Profile PROFILE = Profile.parse("2", "40", "300", "200", "0", "0");
    private static final PoolKind MINE = PoolKind.qtp(200);
    private static final PoolKind LOOM = PoolKind.loom();
    private static final List<PoolKind> POOLS = List.of(MINE, LOOM);

    private static AdvisePage.Run run(PoolKind pool, int offered, double achieved, double p99Ms, long errors) {
        return run(pool, offered, achieved, p99Ms, errors, 10, false);
    }

    private static AdvisePage.Run run(PoolKind pool, int offered, double achieved, double p99Ms, long errors, double clientPct, boolean clientLimited) {
        RunSpec spec = new RunSpec(pool, Endpoint.parse("mixed?cpu=1&sleep=40&file=0"), 101, offered, Client.OHA, 1);
        long sent = Math.round(achieved * 10) + errors;
        RunResult r = new RunResult(spec, "java", sent, sent, sent - errors, errors, 10, achieved, achieved,
                new Measured.Latency(45, 50, p99Ms, p99Ms, p99Ms), 0.0025 * sent, 100_000, 120_000, 3_000_000, pool.equals(LOOM) ? 27 : 222,
                1, clientPct, 30, clientLimited, 0);
        return new AdvisePage.Run(pool, offered, r, null);
    }

    private static List<AdvisePage.Run> every(PoolKind pool, double p99At300, double p99At450, double p99At600) {
        return List.of(run(pool, 300, 300, p99At300, 0), run(pool, 450, 450, p99At450, 0), run(pool, 600, 600, p99At600, 0));
    }

    /** The run as invocation {@code invocation}'s. */
    private static AdvisePage.Run in(int invocation, AdvisePage.Run r) {
        return new AdvisePage.Run(r.pool(), r.offered(), invocation, 1, r.result(), r.failure(), r.idleCpuMsPerS(), r.warmth());
    }

    /** Every point twice, once in each of two invocations. */
    private static List<AdvisePage.Run> twice(List<AdvisePage.Run> runs) {
        List<AdvisePage.Run> out = new ArrayList<>();
        for (int invocation = 1; invocation <= 2; invocation++) for (AdvisePage.Run r : runs) out.add(in(invocation, r));
        return out;
    }

    @Test
    void aPoolsFiguresAtARateWithAMarkedRunReadUndecidedAndTheTableSaysWhy() {
        List<AdvisePage.Run> runs = new ArrayList<>(twice(every(MINE, 60, 60, 60)));
        runs.addAll(twice(List.of(run(LOOM, 450, 450, 60, 0), run(LOOM, 600, 600, 60, 0))));
        runs.addAll(List.of(in(1, run(LOOM, 300, 300, 60, 0, 95, true)), in(2, run(LOOM, 300, 300, 60, 0))));
        String figures = AdvisePage.figures(PROFILE, 2, POOLS, runs);
        assertTrue(figures.contains("loom p99 60.0 ms") && figures.contains("yours), undecided: 1 of 2 run(s) marked"), figures);
        assertEquals(1, figures.split("undecided").length - 1, "only loom at 300 req/s is marked: " + figures);
        String page = AdvisePage.render(PROFILE, "mixed?cpu=1&sleep=40&file=0", 5000, 2, POOLS, runs, "15s windows", "advise.png");
        assertTrue(page.contains("| `loom` | 300 | 1 | 1 | 300.0 |") && page.contains("| yes | client-limited |") && page.contains("| yes | - |"), page);
        assertTrue(page.contains("2 run(s) per pool and rate from 2 invocation(s)"), page);
        assertFalse(page.contains("sketch"), "two invocations are no sketch: " + page);
    }

    @Test
    void theNoiseLineIsTheSamePoolsMedianAcrossInvocationsAndAPointWithOnlyMarkedRunsGivesNoFigure() {
        List<AdvisePage.Run> runs = new ArrayList<>(List.of(in(1, run(MINE, 300, 300, 60, 0)), in(2, run(MINE, 300, 300, 66, 0))));
        runs.addAll(List.of(in(1, run(LOOM, 300, 300, 60, 0, 95, true)), in(2, run(LOOM, 300, 300, 60, 0, 95, true))));
        String figures = AdvisePage.figures(PROFILE, 2, POOLS, runs);
        assertTrue(figures.contains("a pool's median moved up to 0.0 % in CPU per request and 10.0 % in p99 between invocations"), figures);
        assertTrue(figures.contains("loom not decided: 2 of 2 run(s) marked"), figures);
        assertFalse(figures.contains("loom p99"), "a marked run's figure is quoted nowhere: " + figures);
        assertTrue(Double.isNaN(AdvisePage.noise(POOLS, runs.subList(0, 1), 300, r -> r.result().p99Ms())), "one invocation has no noise line");
    }

    @Test
    void aPointWhoseRunsComeFromOneInvocationReadsUndecidedAndThePageIsASketch() {
        List<AdvisePage.Run> runs = new ArrayList<>(twice(every(MINE, 60, 60, 60)));
        runs.addAll(every(LOOM, 60, 60, 60)); // loom's second invocation did not run
        String figures = AdvisePage.figures(PROFILE, 2, POOLS, runs);
        assertTrue(figures.startsWith("At your 300 req/s (medians): qtp:200 p99 60.0 ms and 2.500 ms of CPU per request (2 run(s));"
                + " loom p99 60.0 ms and 2.500 ms of CPU per request (1.00x and 1.00x yours) (1 run(s)), undecided: runs from one invocation."), figures);
        assertEquals(2, figures.split("undecided").length - 1, "loom at your rate and at the highest held: " + figures);
        String sketch = AdvisePage.render(PROFILE, "mixed?cpu=1&sleep=40&file=0", 5000, 2, POOLS, every(MINE, 60, 60, 60), "15s windows", null);
        assertTrue(sketch.contains("this page is a sketch of your profile, to confirm with --invocations 2"), sketch);
    }

    @Test
    void aRateIsHeldOnlyWithoutErrorsNearlyAllOfItAchievedAndABoundedP99() {
        assertTrue(AdvisePage.held(run(MINE, 300, 299, 60, 0), PROFILE));
        assertFalse(AdvisePage.held(run(MINE, 300, 299, 60, 1), PROFILE));
        assertFalse(AdvisePage.held(run(MINE, 300, 250, 60, 0), PROFILE));
        assertFalse(AdvisePage.held(run(MINE, 300, 299, AdvisePage.p99BoundMs(PROFILE) + 1, 0), PROFILE));
    }

    @Test
    void theMeasuredKneeLiesAfterTheLastRateHeld() {
        List<AdvisePage.Run> runs = every(MINE, 60, 60, 5_000);
        assertEquals(450, AdvisePage.heldUpTo(MINE, runs, PROFILE));
        assertEquals("between 450 and 600 req/s", AdvisePage.measuredKnee(MINE, runs, PROFILE));
    }

    @Test
    void theVerdictSaysVirtualThreadsPayOffWhenOnlyTheyHoldTheRates() {
        List<AdvisePage.Run> runs = new ArrayList<>(every(MINE, 60, 5_000, 9_000));
        runs.addAll(every(LOOM, 60, 60, 70));
        String verdict = AdvisePage.verdict(PROFILE, 2, POOLS, runs);
        assertTrue(verdict.startsWith("Virtual threads pay off for this profile: loom held every rate measured, up to 600 req/s"), verdict);
        assertTrue(verdict.contains("qtp:200 held up to 300 req/s"), verdict);
    }

    @Test
    void theVerdictNamesEveryPoolThatHeldAsMuchAsTheBest() {
        PoolKind preferred = PoolKind.parse(loomylin.lab.engine.run.Shapes.PREFERRED);
        List<AdvisePage.Run> runs = new ArrayList<>(every(MINE, 5_000, 5_000, 9_000));
        runs.addAll(every(LOOM, 60, 60, 70));
        runs.addAll(every(preferred, 60, 60, 70));
        String verdict = AdvisePage.verdict(PROFILE, 2, List.of(MINE, LOOM, preferred), runs);
        assertTrue(verdict.startsWith("Virtual threads pay off for this profile: loom (and " + preferred + ") held every rate"), verdict);
        assertTrue(verdict.contains("your qtp:200 did not hold your own 300 req/s"), verdict);
    }

    @Test
    void theVerdictKeepsTheUsersPoolWhenItHoldsAsMuch() {
        List<AdvisePage.Run> runs = new ArrayList<>(every(MINE, 60, 60, 60));
        runs.addAll(every(LOOM, 60, 60, 60));
        String verdict = AdvisePage.verdict(PROFILE, 2, POOLS, runs);
        assertTrue(verdict.startsWith("Keep qtp:200"), verdict);
        assertTrue(verdict.contains("loom held it too, with 27 OS threads against 222"), verdict);
    }

    private static AdvisePage.Run round(PoolKind pool, int offered, int round, double p99Ms, double idleCpuMsPerS) {
        AdvisePage.Run r = run(pool, offered, offered, p99Ms, 0);
        return new AdvisePage.Run(pool, offered, round, 1, r.result(), null, idleCpuMsPerS, Warmth.NONE); // round N in invocation N
    }

    @Test
    void aRateIsHeldOnlyWhenEveryRunOfItHeldAndThePageGivesTheMedians() {
        List<AdvisePage.Run> runs = List.of(round(MINE, 300, 1, 60, 5), round(MINE, 300, 2, 70, 5), round(MINE, 300, 3, 80, 5),
                round(LOOM, 300, 1, 60, 5), round(LOOM, 300, 2, 9_000, 5));
        assertTrue(AdvisePage.held(MINE, 300, runs, PROFILE));
        assertFalse(AdvisePage.held(LOOM, 300, runs, PROFILE), "one run of two missed the p99 bound");
        assertFalse(AdvisePage.held(LOOM, 450, runs, PROFILE), "no run, not held");
        assertEquals("at 300 req/s: achieved 300.0, p99 70.0 ms", AdvisePage.at(MINE, runs, 300));
    }

    /** A run whose warm-up ended with the JIT busy is marked cold, decides nothing, and the page says so; its JIT's share is shown. */
    @Test
    void aColdRunIsMarkedAndItsJitShareShown() {
        AdvisePage.Run r = round(LOOM, 300, 1, 60, 5); // 3,000 answers at 2.5 ms: 7.5 s of CPU
        AdvisePage.Run cold = new AdvisePage.Run(r.pool(), r.offered(), 1, 1, r.result(), null, 5,
                new Warmth(false, new JvmCpu(7.5, 1.5, 0.3), "1.500;0.900", "40.0;20.0"));
        assertEquals(List.of("cold"), cold.marks());
        assertFalse(cold.decides());
        assertEquals(0.5, cold.jitMs(), 1e-9, "1.5 s of the compiler threads' CPU over 3,000 answers");
        assertEquals(0.1, cold.gcMs(), 1e-9);
        AdvisePage.Run warm = new AdvisePage.Run(r.pool(), r.offered(), 1, 1, r.result(), null, 5, new Warmth(true, new JvmCpu(7.5, 0.01, 0.3), "0.5;0.5", "1.0;0.3"));
        assertTrue(warm.decides(), String.valueOf(warm.marks()));
        assertTrue(Double.isNaN(r.jitMs()), "not recorded, no figure");
        String page = AdvisePage.render(PROFILE, "mixed", 5000, 2, POOLS, List.of(cold, round(MINE, 300, 1, 60, 5)), "15 s windows", null);
        assertTrue(page.contains("| 0.500 | 0.100 |") && page.contains(" | cold |"), page);
        assertFalse(page.contains("less idle"), "the figure that could read negative is gone");
    }

    @Test
    void theVerdictGivesEveryPoolsP99AndCpuAtTheUsersRateAgainstTheUsersPool() {
        List<AdvisePage.Run> runs = new ArrayList<>(List.of(round(MINE, 300, 1, 50, 5), round(MINE, 300, 2, 50, 5)));
        runs.addAll(List.of(round(LOOM, 300, 1, 100, 5), round(LOOM, 300, 2, 100, 5)));
        String verdict = AdvisePage.verdict(PROFILE, 2, POOLS, runs);
        assertTrue(verdict.contains("At your 300 req/s (median of 2 run(s) each): qtp:200 p99 50.0 ms and 2.500 ms of CPU per request"), verdict);
        assertTrue(verdict.contains("loom p99 100.0 ms and 2.500 ms of CPU per request (2.00x and 1.00x yours)"), verdict);
        List<AdvisePage.Run> split = runs.stream().map(r -> new AdvisePage.Run(r.pool(), r.offered(), r.invocation(), r.round(), r.result(), null,
                r.idleCpuMsPerS(), new Warmth(true, new JvmCpu(r.result().cpuS(), 0.3, 0.1), "", ""))).toList();
        assertTrue(AdvisePage.verdict(PROFILE, 2, POOLS, split).contains("loom p99 100.0 ms and 2.500 ms of CPU per request (0.100 of it the JIT's)"),
                "the JIT's part where recorded: " + AdvisePage.verdict(PROFILE, 2, POOLS, split));
        runs.addAll(List.of(round(MINE, 450, 1, 60, 5), round(LOOM, 450, 1, 130, 5)));
        String higher = AdvisePage.verdict(PROFILE, 2, POOLS, runs);
        assertTrue(higher.contains("At 450 req/s (median of 1 run(s) each): qtp:200 p99 60.0 ms") && higher.contains("loom p99 130.0 ms"),
                "and at the highest rate the user's pool held: " + higher);
    }

    @Test
    void aRatePastTheCoresIsAnsweredWithWhatTheCoresAllowAndWhereToCap() {
        Profile past = Profile.parse("2", "40", "1000", "200", "0", "0");
        int allowed = past.allowedRate(2);
        List<AdvisePage.Run> runs = List.of(run(MINE, allowed, allowed, 60, 0), run(LOOM, allowed, allowed, 60, 0), run(MINE, 1000, 800, 9_000, 0),
                run(LOOM, 1000, 800, 9_000, 0));
        String verdict = AdvisePage.verdict(past, 2, POOLS, runs);
        assertTrue(verdict.startsWith("Your 1000 req/s is past this machine's cores: at 2.500 ms of CPU per request it needs 2.5 cores, and there are 2."), verdict);
        assertTrue(verdict.contains("the rate the cores allow, " + allowed + " req/s"), verdict);
        assertTrue(verdict.matches("(?s).*cap admission at about 3[45] requests in flight \\(Loomylin's --max-in-flight 3[45]: Little's law.*"), verdict); // 2 x (2.5 + 40) / 2.5 = 34
        assertTrue(verdict.contains("At " + allowed + " req/s") && verdict.contains("At your 1000 req/s"), verdict);
    }

    @Test
    void aCpuBoundProfileGetsTheAdmissionControlCaveat() {
        Profile heavy = Profile.parse("3", "40", "300", "200", "0", "0");
        List<AdvisePage.Run> runs = every(LOOM, 60, 60, 60); // 2.5 ms CPU per request measured: 1.5 cores at 600 req/s
        assertTrue(AdvisePage.caveats(heavy, 2, List.of(LOOM), runs).stream().anyMatch(c -> c.startsWith("CPU-bound at these rates")));
    }

    @Test
    void aWaitGetsTheDownstreamLimitCaveat() {
        assertTrue(AdvisePage.caveats(PROFILE, 64, POOLS, List.of()).stream().anyMatch(c -> c.startsWith("A downstream limit")));
    }

    @Test
    void aWaitOfBackendCallsGetsTheDownstreamCaveatCountingTheCalls() {
        List<String> caveats = AdvisePage.caveats(Profile.parse("2", "40", "300", "200", "0", "2"), 64, POOLS, List.of());
        assertTrue(caveats.stream().anyMatch(c -> c.startsWith("A downstream limit: the 40 ms wait is 2 call(s)") && c.contains("1200 calls per second")),
                caveats.toString());
    }

    @Test
    void aLargeBodyGetsTheCappedVirtualThreadPoolAndFileReadCaveats() {
        List<String> caveats = AdvisePage.caveats(Profile.parse("0", "0", "10", "200", "100000", "0"), 64, POOLS, List.of());
        assertTrue(caveats.stream().anyMatch(c -> c.contains("capped by maxThreads")), caveats.toString());
        assertTrue(caveats.stream().anyMatch(c -> c.startsWith("File reads")), caveats.toString());
    }

    @Test
    void aClientLimitedRunIsNamedWithTheClientsAndTheServersShare() {
        List<String> limits = AdvisePage.limits(List.of(run(LOOM, 600, 600, 60, 0, 65, true)));
        assertEquals(List.of("loom at 600 req/s (1 run): oha used 65 % of all cores and the server 30 %; the client, or the machine they share,"
                + " may have been the limit, not the pool."), limits);
    }

    @Test
    void aRunMarkedBecauseTheServerFilledTheMachineSaysSoNotThatTheClientWasTheLimit() {
        List<String> limits = AdvisePage.limits(List.of(in(2, run(LOOM, 1024, 900, 2_000, 0, 2, true))));
        assertEquals(List.of("loom at 1024 req/s (1 run): the server used 30 % of all cores and oha 2 %: the machine was full, mostly with the"
                + " server's work, so this rate is at or past what the cores serve; the run decides nothing."), limits);
    }

    @Test
    void theRunsOfOnePointFlaggedAlikeAreOneLineWithTheirSharesAsARange() {
        List<String> limits = AdvisePage.limits(List.of(in(1, run(LOOM, 1024, 900, 2_000, 0, 2, true)), in(2, run(LOOM, 1024, 900, 2_000, 0, 3, true)),
                in(2, run(LOOM, 600, 600, 60, 0, 2, false))));
        assertEquals(List.of("loom at 1024 req/s (2 runs): the server used 30 % of all cores and oha 2-3 %: the machine was full, mostly with the"
                + " server's work, so this rate is at or past what the cores serve; these runs decide nothing."), limits);
    }

    @Test
    void aRunNotFlaggedIsNotNamed() {
        assertEquals(List.of("Nothing flagged: neither the client nor the machine was near its limit in any run."),
                AdvisePage.limits(List.of(run(LOOM, 600, 600, 60, 0, 10, false))));
    }

    /** advise.csv keeps the committed files' columns, and a failed run's row still names its pool, endpoint and invocation. */
    @Test
    void adviseCsvKeepsItsColumns() throws java.io.IOException {
        var table = Advise.table(PROFILE, Endpoint.parse("mixed?cpu=700&sleep=40&file=0"));
        // Columns only grow: the newest committed advise.csv's columns are all still written, in their order.
        java.util.List<String> today = table.columnNames();
        assertTrue(loomylin.testing.CommittedCsv.named("advise.csv").stream().anyMatch(f -> {
            try {
                java.util.List<String> then = java.util.List.of(java.nio.file.Files.readString(f).lines().findFirst().orElse("").split(","));
                return today.stream().filter(then::contains).toList().equals(then);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }), "no committed advise.csv has its columns still written in order: " + table.header());
        String failed = table.line(new AdvisePage.Run(PoolKind.parse("loom"), 450, 2, 1, null, "server \"x\" exited", Double.NaN, Warmth.NONE));
        assertEquals("1.50,1,,,,,,,loom,mixed?cpu=700&sleep=40&file=0," + ",".repeat(31) + "2" + ",".repeat(10) + "\"server 'x' exited\"", failed);
    }
}
