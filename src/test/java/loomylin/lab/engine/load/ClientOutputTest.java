package loomylin.lab.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import loomylin.lab.engine.measure.Measured;

/** wrk's done() line and oha's JSON, read into one Measured. */
class ClientOutputTest {

    @Test
    void wrkCountsNonSuccessStatusesAndMissingAnswersAsErrors() {
        String out = """
                Running 1s test @ http://127.0.0.1:1234/wait-async?ms=5
                  2 threads and 8 connections
                loomylin-wrk requests=1500 duration_us=1001234 connect=0 read=2 write=0 status=10 timeout=3 p50_us=5210 p90_us=5800 p99_us=7100 p999_us=9000 max_us=12000
                """;
        Measured m = WrkRun.parse(out, 1.02, 0.3);
        assertEquals(1505, m.sent()); // answers plus the read errors and timeouts
        assertEquals(1500, m.answered());
        assertEquals(1490, m.ok());
        assertEquals(5.21, m.latency().p50Ms(), 1e-9);
        assertEquals(9.0, m.latency().p999Ms(), 1e-9);
        assertEquals(12.0, m.latency().maxMs(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> WrkRun.parse("Running 1s test\n", 1, 0));
        assertThrows(IllegalArgumentException.class, () -> WrkRun.parse("loomylin-wrk requests=x\n", 1, 0));
        assertTrue(Double.isNaN(m.meanMs()), "a line without mean_us has no mean");
    }

    /** The mean latency gives the closed loop's rate by Little's law: 8 connections each waiting 5.3 ms. */
    @Test
    void wrkMeanLatencyGivesTheLittleRate() {
        Measured m = WrkRun.parse("loomylin-wrk requests=1500 duration_us=1001234 connect=0 read=0 write=0 status=0 timeout=0 p50_us=5210 "
                + "p90_us=5800 p99_us=7100 p999_us=9000 max_us=12000 mean_us=5300\n", 1.0, 0.3);
        assertEquals(5.3, m.meanMs(), 1e-9);
        assertEquals(8 * 1000 / 5.3, m.littleRps(8), 1e-9);
        assertTrue(Double.isNaN(new Measured(0, 0, 0, Measured.Latency.NONE, 1, 0).littleRps(8)), "no mean, no Little rate");
    }

    /** The fields of oha's --output-format json the bench reads (a trimmed document of that shape, seconds). */
    @Test
    void ohaReadsStatusesAndCorrectedPercentiles() {
        String json = """
                {"summary":{"successRate":1.0,"total":10.2,"slowest":0.9,"fastest":0.1,"average":0.12,"requestsPerSec":245.1},
                 "latencyPercentiles":{"p10":0.1,"p25":0.1,"p50":0.101,"p75":0.102,"p90":0.105,"p95":0.11,"p99":0.14,"p99.9":0.5,"p99.99":0.9},
                 "statusCodeDistribution":{"200":2495,"503":3},
                 "errorDistribution":{"aborted due to deadline":2}}
                """;
        Measured m = OhaRun.parse(json, 2500, 10.3, 1.1);
        assertEquals(2500, m.sent());
        assertEquals(2498, m.answered());
        assertEquals(2495, m.ok());
        assertEquals(101.0, m.latency().p50Ms(), 1e-9);
        assertEquals(140.0, m.latency().p99Ms(), 1e-9);
        assertEquals(500.0, m.latency().p999Ms(), 1e-9);
        assertEquals(900.0, m.latency().maxMs(), 1e-9);
        assertEquals(120.0, m.meanMs(), 1e-9, "the mean, which advise --app sizes a pool by (Little's law)");
        Measured none = OhaRun.parse("{\"summary\":{},\"latencyPercentiles\":{},\"statusCodeDistribution\":{}}", 10, 1, 0);
        assertEquals(0, none.ok());
        assertTrue(Double.isNaN(none.latency().p99Ms()));
        assertTrue(Double.isNaN(none.meanMs()), "no answers, no mean");
        assertThrows(IllegalArgumentException.class, () -> OhaRun.parse("{\"summary\":{}}", 10, 1, 0));
    }
}
