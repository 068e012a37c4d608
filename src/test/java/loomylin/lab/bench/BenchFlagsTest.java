package loomylin.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.load.RequestRule;
import loomylin.lab.engine.run.RunSpec;

class BenchFlagsTest {

    private static BenchConfig parse(String... args) {
        return BenchFlags.parse(args, Map.of());
    }

    private static List<String> describe(List<RunSpec> runs) {
        return runs.stream().map(RunSpec::describe).toList();
    }

    /** --carriers sets the servers' virtual-thread scheduler; 0 leaves the JDK's default; --target's servers are not ours to start. */
    @Test
    void carriersBecomeTheServersSchedulerOptions() {
        assertEquals(List.of(), parse("--out", "x").serverJvmOptions());
        assertEquals(List.of("-Djdk.virtualThreadScheduler.parallelism=200", "-Djdk.virtualThreadScheduler.maxPoolSize=256"),
                parse("--out", "x", "--carriers", "200").serverJvmOptions());
        assertEquals(List.of("-Djdk.virtualThreadScheduler.parallelism=300", "-Djdk.virtualThreadScheduler.maxPoolSize=300"),
                BenchFlags.parse(new String[] {"--out", "x"}, Map.of("LOOMYLIN_CARRIERS", "300")).serverJvmOptions());
        for (String bad : List.of("-1", "10001", "many")) {
            UsageError e = assertThrows(UsageError.class, () -> parse("--out", "x", "--carriers", bad), bad);
            assertTrue(!e.getMessage().contains("\n") && e.getMessage().contains("--carriers"), e.getMessage());
        }
        Flags remote = Flags.parse(new String[] {"--carriers", "8"}, BenchFlags.FLAGS, Map.of());
        UsageError e = assertThrows(UsageError.class, () -> BenchFlags.carriers(remote, true));
        assertTrue(e.getMessage().contains("--target"), e.getMessage());
    }

    @Test
    void smokeIsTwoPoolsTwoEndpointsTwoLevelsPoolsVaryingFastest() {
        BenchConfig c = parse("--preset", "smoke");
        assertEquals(List.of(
                "loom wait-blocking?ms=10 c=5 hey #1", "qtp:4 wait-blocking?ms=10 c=5 hey #1",
                "loom computational?iterations=1000 c=5 hey #1", "qtp:4 computational?iterations=1000 c=5 hey #1",
                "loom wait-blocking?ms=10 c=10 hey #1", "qtp:4 wait-blocking?ms=10 c=10 hey #1",
                "loom computational?iterations=1000 c=10 hey #1", "qtp:4 computational?iterations=1000 c=10 hey #1"),
                describe(c.runs()));
        assertEquals("500ms", c.warmup());
    }

    @Test
    void theTwoSidesOfARatioRunSideBySideInEveryRepeat() {
        // P4 compares /hops-blocking with /hops-async on one pool: each repeat runs both before the next repeat,
        // so that the backend JVM, warming over the bench, does not favour the endpoint that happens to run later.
        assertEquals(List.of("loom hops-blocking c=50 wrk #1", "loom hops-async c=50 wrk #1", "loom hops-blocking c=50 wrk #2",
                "loom hops-async c=50 wrk #2", "loom hops-blocking c=1000 wrk #1", "loom hops-async c=1000 wrk #1",
                "loom hops-blocking c=1000 wrk #2", "loom hops-async c=1000 wrk #2"), describe(parse("--preset", "hops").runs()));
    }

    @Test
    void explicitListsReplaceThePresetsInEveryBlockAndRunsComeOnce() {
        BenchConfig c = parse("--preset", "hops", "--pools", "loom", "--endpoints", "/wait-async?ms=5", "--concurrency", "3,6");
        assertEquals(List.of("loom wait-async?ms=5 c=3 wrk #1", "loom wait-async?ms=5 c=3 wrk #2",
                "loom wait-async?ms=5 c=6 wrk #1", "loom wait-async?ms=5 c=6 wrk #2"), describe(c.runs()));
    }

    @Test
    void runsListedWithoutAPresetGetWindowsThatDecide() {
        BenchConfig c = parse("--pools", "loom,qtp:4", "--endpoints", "computational?work=sha256", "--concurrency", "50", "--repeat", "1");
        assertEquals(List.of("loom computational?work=sha256 c=50 wrk #1", "qtp:4 computational?work=sha256 c=50 wrk #1"), describe(c.runs()));
        assertEquals(loomylin.lab.engine.run.Windows.DECIDING_CLOSED_S, c.measureS());
        assertEquals(loomylin.lab.engine.run.Windows.DECIDING_OPEN_S, c.openMeasureS());
        assertTrue(c.decides());
    }

    @Test
    void quickAndSmokeDecideNothingUnlessTheWindowIsLengthened() {
        assertFalse(parse("--preset", "quick").decides());
        assertFalse(parse("--preset", "smoke").decides());
        assertFalse(parse().decides(), "no flags at all: the quick tour");
        assertTrue(parse("--preset", "quick", "--measure", "30").decides());
    }

    @Test
    void aWindowDecidesForTheModesThePlanHasOnly() {
        String[] closed = {"--pools", "loom", "--endpoints", "wait-blocking?ms=100", "--concurrency", "50", "--measure", "20"};
        assertTrue(parse(closed).decides(), "20 s closed-loop windows decide, and there is no open-loop run to be too short");
        String[] open = {"--pools", "loom", "--endpoints", "wait-blocking?ms=100", "--concurrency", "50", "--rate", "100", "--measure", "20"};
        assertFalse(parse(open).decides(), "an open-loop window needs 30 s");
    }

    @Test
    void publishingPresetsMeasureDecidingWindows() {
        for (String preset : List.of("full", "latency", "scale", "hops")) assertTrue(parse("--preset", preset).decides(), preset);
    }

    @Test
    void repeatsInterleaveAcrossPools() {
        BenchConfig c = parse("--preset", "smoke", "--pools", "loom,qtp:4,qtp:32", "--endpoints", "wait-async", "--concurrency", "5", "--repeat", "2");
        assertEquals(List.of("loom wait-async c=5 hey #1", "qtp:4 wait-async c=5 hey #1", "qtp:32 wait-async c=5 hey #1",
                "loom wait-async c=5 hey #2", "qtp:4 wait-async c=5 hey #2", "qtp:32 wait-async c=5 hey #2"), describe(c.runs()));
    }

    @Test
    void ratesMakeEveryRunOpenLoopWithOha() {
        BenchConfig c = parse("--preset", "smoke", "--pools", "loom", "--endpoints", "wait-blocking?ms=100", "--concurrency", "200", "--rate", "100,300");
        assertEquals(List.of("loom wait-blocking?ms=100 100/s c=200 oha #1", "loom wait-blocking?ms=100 300/s c=200 oha #1"), describe(c.runs()));
        assertTrue(c.runs().stream().allMatch(RunSpec::open));
        assertEquals(List.of("loom wait-async c=5 wrk #1"),
                describe(parse("--preset", "smoke", "--pools", "loom", "--endpoints", "wait-async", "--concurrency", "5", "--client", "wrk").runs()));
    }

    @Test
    void theLatencyPresetStepsAcrossQtp32sKnee() {
        List<String> runs = describe(parse("--preset", "latency").runs());
        assertEquals(5 * Preset.LATENCY_RATES.size(), runs.size());
        for (String pool : List.of("qtp:32", "loom", "qtp-vt:8", "jetty-vtp"))
            for (int rate : List.of(100, 250, 300, 450, 600))
                assertTrue(runs.contains(pool + " wait-blocking?ms=100 " + rate + "/s c=1000 oha #1"), pool + " " + rate);
        assertTrue(runs.contains("qtp:32 wait-async?ms=100 300/s c=1000 oha #1"));
    }

    @Test
    void environmentVariablesCountAsFlagsAndFlagsWin() {
        BenchConfig c = BenchFlags.parse(new String[] {"--concurrency", "7"},
                Map.of("LOOMYLIN_PRESET", "smoke", "LOOMYLIN_POOLS", "jetty-vtp:100", "LOOMYLIN_CONCURRENCY", "9"));
        assertEquals(List.of(PoolKind.parse("jetty-vtp:100")), RunSpec.pools(c.runs()));
        assertTrue(c.runs().stream().allMatch(r -> r.concurrency() == 7));
    }

    @Test
    void requestsAreAMultipleOfTheConcurrencyAndNeverFewer() {
        RequestRule fixed = RequestRule.fixed(301);
        assertEquals(List.of(300, 500, 2000), List.of(fixed.requestsFor(3, 5000), fixed.requestsFor(500, 5000), fixed.requestsFor(2000, 5000)));
        RequestRule full = Preset.FULL.requests();
        assertEquals(1000, full.requestsFor(50, 10)); // never below the minimum
        assertEquals(2950, full.requestsFor(50, 2979)); // what the warm-up achieved in the window, a multiple of c
        assertEquals(4000, full.requestsFor(2000, 100)); // at least 2 per client
        assertEquals(100000, full.requestsFor(50, 1_000_000));
    }

    @Test
    void theFullPresetCoversEveryTargetTwice() {
        BenchConfig full = parse("--preset", "full");
        List<String> runs = describe(full.runs());
        // 24 configurations; 22 in a build without /mixed, where the CPU blocks fall back to /computational and two coincide
        assertEquals((Preset.CPU.equals("computational") ? 22 : 24) * 2, runs.size());
        assertEquals(2, full.invocations(), "every verdict of full rests on two invocations");
        assertEquals(1, parse("--preset", "full", "--invocations", "1").invocations());
        for (String needed : List.of("loom wait-blocking?ms=100 c=50 wrk", "qtp:4 wait-async?ms=100 c=50 wrk", "loom " + Preset.CPU + " c=50 wrk",
                "qtp:4 " + Preset.CPU + " c=50 wrk", "loom wait-blocking?ms=100 c=2000 wrk", "loom wait-async?ms=100 c=2000 wrk",
                "loom hops-blocking c=1000 wrk", "loom hops-async c=1000 wrk", "loom wait-blocking?ms=1000 c=2000 wrk",
                "qtp:2500 wait-blocking?ms=1000 c=2000 wrk")) {
            for (int r = 1; r <= 2; r++) assertTrue(runs.contains(needed + " #" + r), needed + " #" + r);
        }
        for (String pool : List.of("qtp:32", "loom", "qtp-vt:8"))
            assertTrue(full.runs().stream().anyMatch(r -> r.open() && r.rate() == 250 && r.pool().toString().equals(pool)), pool + " offered 250 req/s (P7)");
        for (String pool : List.of("qtp:32", "loom"))
            assertTrue(full.runs().stream().anyMatch(r -> r.open() && r.rate() == 450 && r.pool().toString().equals(pool)), pool + " offered 450 req/s (P8, P9)");
    }

    @Test
    void cpuSetsPinOnlyWhatTheBenchStarts() {
        UsageError e = assertThrows(UsageError.class, () -> parse("--target", "http://127.0.0.1:9", "--server-cpus", "0"));
        assertTrue(e.getMessage().contains("--server-cpus"), e.getMessage());
        assertThrows(UsageError.class, () -> parse("--client-cpus", "x"));
        assertThrows(UsageError.class, () -> parse("--client-cpus", "4095"), "a CPU this process may not use");
    }

    @Test
    void mistakesAreUsageErrors() {
        assertThrows(UsageError.class, () -> parse("--preset", "huge"));
        assertThrows(UsageError.class, () -> parse("--pools", "qtp"));
        assertThrows(UsageError.class, () -> parse("--pools", " , "));
        assertThrows(UsageError.class, () -> parse("--endpoints", "pool"));
        assertThrows(UsageError.class, () -> parse("--endpoints", "wait-async?ms=1 2"));
        assertThrows(UsageError.class, () -> parse("--concurrency", "0"));
        assertThrows(UsageError.class, () -> parse("--concurrency", "ten"));
        assertThrows(UsageError.class, () -> parse("--requests", "-1"));
        assertThrows(UsageError.class, () -> parse("--warmup", "2"));
        assertThrows(UsageError.class, () -> parse("--heap", "lots"));
        assertThrows(UsageError.class, () -> parse("--twin", "scala"));
        assertThrows(UsageError.class, () -> parse("--rate", "0"));
        assertThrows(UsageError.class, () -> parse("--rate", "fast"));
        assertThrows(UsageError.class, () -> parse("--repeat", "0"));
        assertThrows(UsageError.class, () -> parse("--client", "ab"));
        assertThrows(UsageError.class, () -> parse("--measure", "0"));
        assertThrows(UsageError.class, () -> parse("--bogus", "1"));
    }

    @Test
    void endpointsKeepTheirQueryAndNameTheirChart() {
        Endpoint e = Endpoint.parse("/wait-blocking?ms=1000");
        assertEquals("wait-blocking?ms=1000", e.toString());
        assertEquals("/wait-blocking?ms=1000", e.pathAndQuery());
        assertEquals("wait-blocking-ms-1000", e.slug());
        assertEquals(1000, e.intParam("ms").getAsInt());
        assertTrue(e.intParam("iterations").isEmpty());
        assertTrue(Endpoint.parse("hops-async?delay=20").usesBackend());
        assertEquals("computational", Endpoint.parse("computational").slug());
    }

    @Test
    void aFlagTheCrossoverDoesNotReadIsAUsageError() {
        Flags flags = Flags.parse(new String[] {"--preset", "crossover", "--concurrency", "100"}, BenchFlags.FLAGS, Map.of());
        UsageError e = assertThrows(UsageError.class, () -> BenchFlags.only(flags, "crossover", loomylin.lab.experiment.crossover.Crossover.FLAGS));
        assertTrue(e.getMessage().startsWith("--concurrency does not apply to --preset crossover; it reads --cells, --client-limit"), e.getMessage());
    }

    @Test
    void theFlagsTheFloorReadsPass() {
        Flags flags = Flags.parse(new String[] {"--preset", "floor", "--pools", "loom", "--measure", "3"}, BenchFlags.FLAGS, Map.of());
        BenchFlags.only(flags, "floor", loomylin.lab.experiment.crossover.Floor.FLAGS);
    }
}
