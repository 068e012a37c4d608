package loomylin.lab.engine.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.server.proc.ProcReader;

/**
 * The warm-up before a fixed-rate window: slices at the window's own rate until the server's JIT is quiet and its
 * cost has settled. A slice is <em>quiet</em> when the JVM's compiler threads spent at most {@link #QUIET_SHARE} of
 * its CPU in it; the cost has <em>settled</em> when two slices in a row cost the same CPU per answer within
 * {@link #SETTLE_SHARE}. The rate settles long before the JIT is done (at 400 req/s a fresh server's CPU per
 * request falls for about 30 s while the rate holds), so a warm-up that only compared rates billed code still being
 * compiled to the window. At least {@link #MIN_SLICES}; past {@code maxSlices} the run is <em>cold</em> (its last
 * slice was not quiet) or <em>unsettled</em>, and decides nothing. What makes a slice quiet ({@link #quiet}, read by
 * {@link #watch}) is the same for the general bench's warm-up ({@link RunExecutor#warmUp}), whose slices settle on
 * their rate instead.
 */
public final class Warmup {
    public static final int MIN_SLICES = 2;
    /** A slice in which the compiler threads spent at most this share of the server's CPU leaves the JIT quiet. */
    public static final double QUIET_SHARE = 0.03;
    /** Two slices in a row whose CPU per answer differ by at most this share settle the cost. */
    public static final double SETTLE_SHARE = 0.10;

    private Warmup() {
    }

    /** Whether the JIT left a stretch of a JVM's CPU (almost) alone: its compiler threads' share at most {@link #QUIET_SHARE}; a share not read is not quiet. */
    public static boolean quiet(JvmCpu cpu) {
        return cpu.jitShare() <= QUIET_SHARE;
    }

    /** The rule in the reports' words: one sentence, for a page whose runs recorded it. */
    public static String quietRule() {
        return String.format(Locale.ROOT, "The warm-up also waits for the JIT: it ends only after a slice in which the server's compiler threads spent at"
                + " most %.0f %% of its CPU; a run whose last slice had the JIT busier is *cold* and decides nothing.", 100 * QUIET_SHARE);
    }

    /** Work done while a JVM's CPU is watched: a warm-up slice. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws IOException;
    }

    /** What a piece of work returned, and what the watched JVM's CPU went to over it, by thread. */
    public record Watched<T>(T value, JvmCpu cpu) {
        public boolean quiet() {
            return Warmup.quiet(cpu);
        }
    }

    /** Does {@code work} while reading the CPU of the JVM {@code pid} by thread around it ({@link JvmCpu#NONE} once it is gone). */
    public static <T> Watched<T> watch(ProcReader proc, long pid, Work<T> work) throws IOException {
        JvmCpu.Snapshot before = JvmCpu.snapshot(proc, pid);
        T value = work.run();
        return new Watched<>(value, JvmCpu.between(before, JvmCpu.snapshot(proc, pid)));
    }

    /** Offers one slice at the run's rate and returns its 2xx answers. */
    @FunctionalInterface
    public interface Slicer {
        long offer() throws IOException;
    }

    /** One warm-up slice: its 2xx answers and the server JVM's CPU over it, split by thread ({@link JvmCpu}). */
    public record Slice(long answers, JvmCpu cpu) {
        public double cpuMsPerAnswer() {
            return answers > 0 && !Double.isNaN(cpu.totalS()) ? 1000 * cpu.totalS() / answers : Double.NaN;
        }

        /** The JIT left this slice (almost) alone: its compiler threads' share at most {@link #QUIET_SHARE}. */
        public boolean quiet() {
            return Warmup.quiet(cpu);
        }
    }

    /** How a warm-up ended: every slice, and whether the cost settled and the JIT was quiet in the last. */
    public record Result(List<Slice> slices, boolean settled, boolean warm) {
        /** Each slice's CPU per answer, in ms, joined by ';' (one column of a results CSV). */
        public String costs() {
            return slices.stream().map(s -> String.format(Locale.ROOT, "%.3f", s.cpuMsPerAnswer())).collect(Collectors.joining(";"));
        }

        /** Each slice's compiler-thread share of the server's CPU, in percent, joined by ';'. */
        public String jitPercents() {
            return slices.stream().map(s -> String.format(Locale.ROOT, "%.1f", 100 * s.cpu().jitShare())).collect(Collectors.joining(";"));
        }
    }

    /** Whether a slice costing {@code current} ms per answer after one costing {@code previous} settles the cost. */
    public static boolean settles(double previous, double current) {
        return previous > 0 && current > 0 && Math.abs(current / previous - 1) <= SETTLE_SHARE;
    }

    /** Whether the warm-up may end after {@code slices}: at least {@link #MIN_SLICES}, the last quiet and settled against the one before. */
    public static boolean done(List<Slice> slices) {
        int n = slices.size();
        return n >= MIN_SLICES && slices.get(n - 1).quiet() && settles(slices.get(n - 2).cpuMsPerAnswer(), slices.get(n - 1).cpuMsPerAnswer());
    }

    /** Warms the server {@code pid} up by {@code slicer}'s slices until {@link #done}, or {@code maxSlices}. */
    public static Result run(ProcReader proc, long pid, int maxSlices, Slicer slicer) throws IOException {
        return run(proc, pid, MIN_SLICES, maxSlices, slicer);
    }

    /** The same with at least {@code minSlices} (a run that should show its cost falling and flat, slice by slice). */
    public static Result run(ProcReader proc, long pid, int minSlices, int maxSlices, Slicer slicer) throws IOException {
        List<Slice> slices = new ArrayList<>();
        int least = Math.max(MIN_SLICES, minSlices);
        while (slices.size() < Math.max(least, maxSlices)) {
            Watched<Long> slice = watch(proc, pid, slicer::offer);
            slices.add(new Slice(slice.value(), slice.cpu()));
            if (slices.size() >= least && done(slices)) break;
        }
        return of(slices);
    }

    /** How {@code slices} ended. */
    public static Result of(List<Slice> slices) {
        int n = slices.size();
        boolean settled = n >= 2 && settles(slices.get(n - 2).cpuMsPerAnswer(), slices.get(n - 1).cpuMsPerAnswer());
        return new Result(List.copyOf(slices), settled, n > 0 && slices.get(n - 1).quiet());
    }
}
