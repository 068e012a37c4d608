package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import loomylin.lab.engine.measure.Measured;
import org.junit.jupiter.api.Test;

/**
 * The bench's warm-up gate: a slice settles the warm-up only when it answered the rate of the slice before it, within
 * the settled rule's share, and it ends only on such a slice in which the server's JIT was quiet (where read).
 */
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

    /** wrk's slices at {@code rps} (Little's rate the same), each quiet or not ({@code warm}; null: not read), handed out in order and counted. */
    private static final class Slices implements RunExecutor.Slicer {
        private final Deque<RunExecutor.WarmedUp> left = new ArrayDeque<>();
        int made;

        Slices(double rps, Boolean... warm) {
            for (Boolean w : warm) left.add(new RunExecutor.WarmedUp(rps, rps, false, w));
        }

        @Override
        public RunExecutor.WarmedUp next() {
            made++;
            return left.removeFirst();
        }
    }

    /**
     * At a few hundred req/s a fresh server answers its rate from the first slice while the JIT still compiles (issue
     * 50): two slices that agree do not end the warm-up while the compiler threads were busy in the last; the first
     * quiet slice that agrees with the one before does.
     */
    @Test
    void aSettledRateWithTheJitBusyTakesAnotherSliceAndTheFirstQuietOneEndsIt() throws java.io.IOException {
        Slices busyThenQuiet = new Slices(400, false, false, false, true, true);
        RunExecutor.WarmedUp w = RunExecutor.slices(RunExecutor.MAX_WARMUP_SLICES, busyThenQuiet);
        assertEquals(4, busyThenQuiet.made, "slices 2 and 3 answered slice 1's rate, but the JIT was busy");
        assertTrue(w.settled() && w.warm() && w.done(), w.toString());

        Slices unread = new Slices(400, null, null, null);
        assertTrue(RunExecutor.slices(RunExecutor.MAX_WARMUP_SLICES, unread).done());
        assertEquals(2, unread.made, "a JIT not read (hey, a --target) leaves the rate alone to decide, as before");
    }

    /** A warm-up that runs out of slices with the JIT busy in the last is cold: its run carries the mark and decides nothing. */
    @Test
    void aWarmUpPastItsBoundWithTheJitBusyMarksTheRunCold() throws java.io.IOException {
        Boolean[] busy = new Boolean[RunExecutor.MAX_WARMUP_SLICES + 1];
        java.util.Arrays.fill(busy, false);
        Slices slices = new Slices(400, busy);
        RunExecutor.WarmedUp w = RunExecutor.slices(RunExecutor.MAX_WARMUP_SLICES, slices);
        assertEquals(RunExecutor.MAX_WARMUP_SLICES, slices.made, "no slice past the bound");
        assertTrue(w.settled(), "the rate settled all along");
        assertEquals(false, w.warm());

        RunSpec spec = new RunSpec(loomylin.server.jetty.PoolKind.parse("loom"), Endpoint.parse("mixed?cpu=984&sleep=20&file=0"), 8, 0,
                loomylin.lab.engine.load.Client.WRK, 1);
        Measured window = new Measured(12_000, 12_000, 12_000, Measured.Latency.NONE, 30, 1, 20);
        RunResult r = new RunResult(spec, "java", 12_000, 12_000, 12_000, 0, 30, 400, 400, Measured.Latency.NONE, 3, 1, 1, 1, 30, 1, 1, 1, false, 0)
                .withSettle(RunExecutor.settle(spec, window, w));
        assertTrue(r.settled(), "the settle gate alone passes it");
        assertTrue(r.cold());
        assertEquals(List.of("cold"), r.marks());
        assertEquals("false", RunResult.TABLE.line(r).substring(RunResult.TABLE.line(r).lastIndexOf(',') + 1), "written as warm false");

        RunResult warm = r.withSettle(RunExecutor.settle(spec, window, new RunExecutor.WarmedUp(400, 400, true, true)));
        assertEquals(List.of(), warm.marks());
        RunResult hey = r.withSettle(RunExecutor.settle(new RunSpec(spec.pool(), spec.endpoint(), 8, 0, loomylin.lab.engine.load.Client.HEY, 1), window, w));
        assertEquals(null, hey.settle().warm(), "a hey run records no warm-up's end");
    }
}
