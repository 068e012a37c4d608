package loomylin.lab.engine.run;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.lab.engine.measure.JvmCpu;

/**
 * Whether a run's warm-up left the server's JIT quiet ({@link Warmup}), what the server's CPU over the window went
 * to by thread ({@link JvmCpu}), and each warm-up slice's cost and JIT share: the columns {@link #COLUMNS} of every
 * results CSV that records them. {@code warm} is null in runs written before it was recorded.
 */
public record Warmth(Boolean warm, JvmCpu window, String warmupCosts, String warmupJitPercents) {
    public static final Warmth NONE = new Warmth(null, JvmCpu.NONE, "", "");
    public static final List<String> COLUMNS = List.of("warm", "jit_cpu_ms_per_req", "gc_cpu_ms_per_req", "warmup_cpu_ms_per_req", "warmup_jit_pct");

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

    /** This run's fields under {@link #COLUMNS}, for a window of {@code answers}. */
    public List<String> csv(long answers) {
        return List.of(warm == null ? "" : warm.toString(), fixed(jitMsPer(answers)), fixed(gcMsPer(answers)), quoted(warmupCosts), quoted(warmupJitPercents));
    }

    /** Read back from a row with {@link #COLUMNS} (NONE without them), its window of {@code answers} costing {@code cpuS}. */
    public static Warmth fromCsv(Map<String, String> f, long answers, double cpuS) {
        String w = f.get("warm");
        if (w == null || w.isEmpty()) return NONE;
        return new Warmth(Boolean.parseBoolean(w), new JvmCpu(cpuS, number(f.get("jit_cpu_ms_per_req")) * answers / 1000,
                number(f.get("gc_cpu_ms_per_req")) * answers / 1000), orEmpty(f.get("warmup_cpu_ms_per_req")), orEmpty(f.get("warmup_jit_pct")));
    }

    private static String fixed(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.5f", v);
    }

    private static String quoted(String s) {
        return s.isEmpty() ? "" : "\"" + s + "\"";
    }

    private static double number(String s) {
        return s == null || s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
