package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.result.Table;
import org.junit.jupiter.api.Test;

/** {@link Warmup}: a fixed-rate warm-up ends when the JIT is quiet and the cost settled, not when the rate is steady. */
class JitWarmupTest {
    /** A 15 s slice at 400 req/s: 6,000 answers costing {@code msPerAnswer}, of whose CPU the compiler threads spent {@code jitShare}. */
    private static Warmup.Slice slice(double msPerAnswer, double jitShare) {
        double cpuS = msPerAnswer * 6_000 / 1000;
        return new Warmup.Slice(6_000, new JvmCpu(cpuS, jitShare * cpuS, 0.01 * cpuS));
    }

    /**
     * The windows of issue 50's table (a fresh loom server at 400 req/s: 1.509, 0.768, 0.479, 0.474 ms): the rate was
     * steady from the first, the cost was not. The warm-up goes on while the JIT is busy, even between two slices
     * whose costs agree, and ends on the first quiet slice that agrees with the one before.
     */
    @Test
    void theWarmUpEndsOnAQuietSliceThatCostsWhatTheOneBeforeDid() {
        List<Warmup.Slice> slices = new ArrayList<>(List.of(slice(1.509, 0.40)));
        assertFalse(Warmup.done(slices), "one slice settles nothing");
        slices.add(slice(0.768, 0.20));
        assertFalse(Warmup.done(slices), "half the cost of the slice before");
        slices.add(slice(0.740, 0.08));
        assertFalse(Warmup.done(slices), "the same cost, but the JIT spent 8 % of the CPU: not quiet");
        slices.add(slice(0.479, 0.02));
        assertFalse(Warmup.done(slices), "quiet, but 35 % below the slice before");
        slices.add(slice(0.474, 0.01));
        assertTrue(Warmup.done(slices));
        Warmup.Result r = Warmup.of(slices);
        assertTrue(r.settled() && r.warm());
        assertEquals("1.509;0.768;0.740;0.479;0.474", r.costs());
        assertEquals("40.0;20.0;8.0;2.0;1.0", r.jitPercents());
    }

    @Test
    void aWarmUpThatRanOutOfSlicesWithTheJitBusyIsColdAndItsRunDecidesNothing() {
        Warmup.Result r = Warmup.of(List.of(slice(1.5, 0.4), slice(0.8, 0.2), slice(0.78, 0.05)));
        assertTrue(r.settled(), "the last two cost the same");
        assertFalse(r.warm(), "5 % of the CPU still the JIT's");
        Warmth cold = Warmth.of(r, new JvmCpu(10, 0.5, 0.2));
        assertTrue(cold.cold());
        assertFalse(Warmth.NONE.cold(), "a run written before the rule is not cold, it is unknown");
        assertFalse(Warmup.of(List.of(slice(1.0, Double.NaN))).warm(), "a JIT share that could not be read is not quiet");
    }

    /** The columns every results CSV with a warm-up writes read back as written. */
    @Test
    void warmthReadsBackFromItsColumns() {
        Warmth w = Warmth.of(Warmup.of(List.of(slice(0.5, 0.01), slice(0.49, 0.0))), new JvmCpu(3, 0.03, 0.3));
        Table<Warmth.Of> table = new Table<>(Warmth.COLUMNS, f -> new Warmth.Of(Warmth.read(f, 6_000, 3), 6_000));
        String line = table.line(new Warmth.Of(w, 6_000));
        assertEquals("true,0.00500,0.05000,\"0.500;0.490\",\"1.0;0.0\"", line);
        assertEquals(line, table.line(table.parse(table.header() + "\n" + line + "\n").getFirst()));
        assertEquals(Warmth.NONE, Warmth.read(new Table.Fields(Map.of()), 6_000, 3), "a row from before the columns");
    }
}
