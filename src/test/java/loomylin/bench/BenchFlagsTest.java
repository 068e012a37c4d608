package loomylin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import loomylin.cli.UsageError;
import loomylin.jetty.PoolKind;
import org.junit.jupiter.api.Test;

class BenchFlagsTest {

    private static BenchConfig parse(String... args) {
        return BenchFlags.parse(args, Map.of());
    }

    private static List<String> describe(List<RunSpec> runs) {
        return runs.stream().map(r -> r.describe() + " n=" + r.requests()).toList();
    }

    @Test
    void smokeIsTwoPoolsTwoEndpointsTwoLevelsPoolsVaryingFastest() {
        BenchConfig c = parse("--preset", "smoke");
        assertEquals(List.of(
                "loom wait-blocking?ms=10 c=5 n=100", "qtp:4 wait-blocking?ms=10 c=5 n=100",
                "loom wait-blocking?ms=10 c=10 n=100", "qtp:4 wait-blocking?ms=10 c=10 n=100",
                "loom computational?iterations=1000 c=5 n=100", "qtp:4 computational?iterations=1000 c=5 n=100",
                "loom computational?iterations=1000 c=10 n=100", "qtp:4 computational?iterations=1000 c=10 n=100"),
                describe(c.runs()));
        assertEquals("500ms", c.warmup());
    }

    @Test
    void explicitListsReplaceThePresetsInEveryBlockAndRunsComeOnce() {
        BenchConfig c = parse("--preset", "full", "--pools", "loom", "--endpoints", "/wait-async?ms=5", "--concurrency", "3,6");
        assertEquals(List.of("loom wait-async?ms=5 c=3 n=1998", "loom wait-async?ms=5 c=6 n=1998"), describe(c.runs()));
    }

    @Test
    void environmentVariablesCountAsFlagsAndFlagsWin() {
        BenchConfig c = BenchFlags.parse(new String[] {"--concurrency", "7"},
                Map.of("LOOMYLIN_PRESET", "smoke", "LOOMYLIN_POOLS", "jetty-vtp:100", "LOOMYLIN_CONCURRENCY", "9"));
        assertEquals(List.of(PoolKind.parse("jetty-vtp:100")), Plan.pools(c.runs()));
        assertTrue(c.runs().stream().allMatch(r -> r.concurrency() == 7));
    }

    @Test
    void requestsAreAMultipleOfTheConcurrencyAndNeverFewer() {
        assertEquals(List.of(300, 500, 2000), parse("--preset", "smoke", "--pools", "loom", "--endpoints", "computational",
                "--concurrency", "3,500,2000", "--requests", "301").runs().stream().map(RunSpec::requests).toList());
        RequestRule full = Preset.FULL.requests();
        assertEquals(2000, full.requestsFor(50));
        assertEquals(2500, full.requestsFor(500));
        assertEquals(10000, full.requestsFor(2000));
        assertEquals(9999, full.requestsFor(3333));
    }

    @Test
    void theFullPresetCoversEveryTarget() {
        List<String> runs = describe(parse("--preset", "full").runs());
        assertEquals(61, runs.size());
        for (String needed : List.of("loom wait-blocking?ms=100 c=50", "loom computational c=50", "qtp:4 computational c=50",
                "loom wait-blocking?ms=100 c=2000", "loom wait-async?ms=100 c=2000", "loom hops-blocking c=1000",
                "loom hops-async c=1000", "loom wait-blocking?ms=1000 c=2000", "qtp:2500 wait-blocking?ms=1000 c=2000")) {
            assertTrue(runs.stream().anyMatch(r -> r.startsWith(needed + " ")), needed);
        }
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
}
