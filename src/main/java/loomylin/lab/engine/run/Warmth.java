package loomylin.lab.engine.run;

import java.util.List;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;

/**
 * Whether a run's warm-up left the server's JIT quiet ({@link Warmup}), what the server's CPU over the window went
 * to by thread ({@link JvmCpu}), and each warm-up slice's cost and JIT share: the columns {@link #COLUMNS} of every
 * results CSV that records them. {@code warm} is null in runs written before it was recorded.
 */
public record Warmth(Boolean warm, JvmCpu window, String warmupCosts, String warmupJitPercents) {
    public static final Warmth NONE = new Warmth(null, JvmCpu.NONE, "", "");

    /** A run's warmth beside the answers of its window, which its per-answer columns divide by. */
    public record Of(Warmth warmth, long answers) {
    }

    private static final Column<Of, Boolean> WARM = Column.maybe("warm", o -> o.warmth.warm);
    private static final Column<Of, Double> JIT = Column.fixed("jit_cpu_ms_per_req", 5, o -> o.warmth.jitMsPer(o.answers));
    private static final Column<Of, Double> GC = Column.fixed("gc_cpu_ms_per_req", 5, o -> o.warmth.gcMsPer(o.answers));
    private static final Column<Of, String> COSTS = Column.quoted("warmup_cpu_ms_per_req", o -> o.warmth.warmupCosts);
    private static final Column<Of, String> JIT_PERCENTS = Column.quoted("warmup_jit_pct", o -> o.warmth.warmupJitPercents);
    public static final List<Column<Of, ?>> COLUMNS = List.of(WARM, JIT, GC, COSTS, JIT_PERCENTS);

    /** How {@code warmup} ended, with the window's CPU split. */
    public static Warmth of(Warmup.Result warmup, JvmCpu window) {
        return new Warmth(warmup.warm(), window, warmup.costs(), warmup.jitPercents());
    }

    /** Recorded, and not warm: the run decides nothing. */
    public boolean cold() {
        return Boolean.FALSE.equals(warm);
    }

    /** The compiler threads' CPU over the window per answer, in ms; NaN where not recorded. */
    public double jitMsPer(long answers) {
        return answers == 0 ? Double.NaN : 1000 * window.jitS() / answers;
    }

    /** The garbage collector's (and the VM thread's), likewise. */
    public double gcMsPer(long answers) {
        return answers == 0 ? Double.NaN : 1000 * window.gcS() / answers;
    }

    /** Read back from a row with {@link #COLUMNS} (NONE without them), its window of {@code answers} costing {@code cpuS}. */
    public static Warmth read(Table.Fields f, long answers, double cpuS) {
        Boolean warm = f.get(WARM);
        if (warm == null) return NONE;
        return new Warmth(warm, new JvmCpu(cpuS, f.get(JIT) * answers / 1000, f.get(GC) * answers / 1000), f.get(COSTS), f.get(JIT_PERCENTS));
    }
}
