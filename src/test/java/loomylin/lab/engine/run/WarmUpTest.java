package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bench's warm-up gate: a slice settles the warm-up only when it answered the rate of the slice before it, within the settled rule's share. */
class WarmUpTest {

    @Test
    void twoSlicesInARowWithinATenthSettleTheWarmUp() {
        assertTrue(RunExecutor.settles(1000, 1090));
        assertTrue(RunExecutor.settles(1000, 910));
        assertFalse(RunExecutor.settles(1000, 1120), "a ramp: the JIT still compiling");
        assertFalse(RunExecutor.settles(Double.NaN, 1000), "the first slice settles nothing");
        assertFalse(RunExecutor.settles(0, 0), "a slice that answered nothing settles nothing");
    }

    private static RunResult closed(double rps, double warmupRps) {
        RunSpec spec = new RunSpec(loomylin.server.jetty.PoolKind.parse("loom"), Endpoint.parse("wait-blocking?ms=1000"), 2000, 0,
                loomylin.lab.engine.load.Client.WRK, 1);
        return new RunResult(spec, "java", 58_000, 57_900, 57_900, 100, 30, rps, warmupRps, loomylin.lab.engine.measure.Measured.Latency.NONE, 3, 1, 1, 1,
                30, 1, 1, 1, false, 0);
    }

    /**
     * A closed loop of 2000 clients waiting 1 s answered 1,928.6 req/s over a 30 s window after 1,736.3 over its 8 s
     * warm-up (full/results.csv, loom): by answers over wall time 1.11x, unsettled, though the server was steady.
     * The requests still in flight when a run stops are a larger share of a short one (wrk answered 7 rounds in 8 s,
     * 29 in 30). Little's law (2000 clients over the mean latency) compares what the server did. Runs written
     * before the warm-up's end was recorded keep that two-sided rule.
     */
    @Test
    void aClosedLoopFromBeforeTheWarmUpsEndWasRecordedSettlesByLittlesLawWithinATenthEitherWay() {
        RunResult byAnswers = closed(1928.6, 1736.3);
        assertFalse(byAnswers.settled(), "answers over wall time: 1.11x");
        assertTrue(byAnswers.withSettle(new RunResult.Settle(null, 2000 / 1.004, 2000 / 1.003)).settled(), "the same mean latency: steady");
        assertFalse(closed(1928.6, 1900).withSettle(new RunResult.Settle(null, 2000 / 0.9, 2000 / 1.05)).settled(),
                "a server that got faster unsettles the run, whatever the answers per second say");
    }

    /**
     * At 10,000 clients each fresh client's first wave of requests waits while its connections open: a 4 s slice's
     * mean latency read 1.25 s where the 30 s window's read 1.03 s (loom, 1 s waits, in the scale run this rule
     * replaced). A run settles when its warm-up's slices agreed and the window did not fall more than a tenth below
     * the last one; faster is the slice's own ramp diluted, not a server still warming up.
     */
    @Test
    void aRunSettlesWhenItsWarmUpAgreedAndTheWindowDidNotFallBelowIt() {
        RunResult r = closed(9312.3, 5025.3);
        assertTrue(r.withSettle(new RunResult.Settle(true, 9702.1, 8020.0)).settled(), "faster than the slice: its ramp diluted");
        assertFalse(r.withSettle(new RunResult.Settle(false, 9702.1, 9650.0)).settled(), "a warm-up whose slices never agreed");
        assertFalse(r.withSettle(new RunResult.Settle(true, 8000, 9000)).settled(), "a window 11 % slower than its warm-up caught something");
        assertTrue(r.withSettle(new RunResult.Settle(true, 8200, 9000)).settled(), "9 % slower: within the rule");
        assertTrue(closed(450, 449).withSettle(new RunResult.Settle(true, Double.NaN, Double.NaN)).settled(), "no Little rates (open loop): by answers per second");
    }
}
