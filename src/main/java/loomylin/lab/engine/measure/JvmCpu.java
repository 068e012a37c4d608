package loomylin.lab.engine.measure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStat;

/**
 * What a JVM's CPU went to over a stretch of time, told apart by its threads' names in /proc: the JIT's compiler
 * threads, the garbage collector's (with the VM thread, which runs its pauses), and the rest (the requests, the
 * selectors, timers). The process's own total counts every thread, ended ones too; a compiler thread that the JVM
 * ends within the stretch (it starts and ends them as the queue needs) takes its last CPU with it, so {@link #jitS}
 * can read low, never high.
 *
 * @param totalS the process's CPU seconds, every thread
 * @param jitS   its compiler threads' ({@code C1 CompilerThre…}, {@code C2 CompilerThre…})
 * @param gcS    its garbage collector's threads' and the VM thread's
 */
public record JvmCpu(double totalS, double jitS, double gcS) {
    public static final JvmCpu NONE = new JvmCpu(Double.NaN, Double.NaN, Double.NaN);

    /** Who a JVM thread works for, by the name the kernel keeps of it (its first 15 characters). */
    public enum Role {
        JIT, GC, OTHER;

        /** HotSpot's compiler threads (C1, C2; Graal's JVMCI ones). */
        private static final List<String> JIT_NAMES = List.of("C1 Compiler", "C2 Compiler", "JVMCI");
        /** Its collectors' threads (G1, Parallel, ZGC, Shenandoah) and the VM thread, which runs their pauses. */
        private static final List<String> GC_NAMES = List.of("GC Thread", "G1 ", "VM Thread", "ZWorker", "ZDirector", "ZDriver", "ZUnmapper",
                "Shenandoah", "Concurrent GC");

        public static Role of(String threadName) {
            if (JIT_NAMES.stream().anyMatch(threadName::startsWith)) return JIT;
            if (GC_NAMES.stream().anyMatch(threadName::startsWith)) return GC;
            return OTHER;
        }
    }

    /** A JVM's CPU at one moment: the process's ticks, and each live thread's by id. */
    public record Snapshot(long totalTicks, Map<Long, ProcStat> threads) {
    }

    /** The process's CPU and its threads' now; null once it is gone. */
    public static Snapshot snapshot(ProcReader proc, long pid) {
        ProcStat process = proc.stat(pid).orElse(null);
        if (process == null) return null;
        Map<Long, ProcStat> threads = new HashMap<>();
        for (ProcStat t : proc.threads(pid)) threads.put(t.pid(), t);
        return new Snapshot(process.cpuTicks(), threads);
    }

    /** From {@code before} to {@code after}: a thread that started in between counts whole; NONE when either is unknown. */
    public static JvmCpu between(Snapshot before, Snapshot after) {
        if (before == null || after == null) return NONE;
        long jit = 0;
        long gc = 0;
        for (ProcStat t : after.threads().values()) {
            ProcStat then = before.threads().get(t.pid());
            long ticks = Math.max(0, t.cpuTicks() - (then == null ? 0 : then.cpuTicks()));
            switch (Role.of(t.command())) {
                case JIT -> jit += ticks;
                case GC -> gc += ticks;
                case OTHER -> {
                }
            }
        }
        return new JvmCpu((after.totalTicks() - before.totalTicks()) / ProcStat.TICKS_PER_SECOND, jit / ProcStat.TICKS_PER_SECOND,
                gc / ProcStat.TICKS_PER_SECOND);
    }

    /** The compiler threads' share of the process's CPU, 0 to 1; NaN when nothing was spent or it is unknown. */
    public double jitShare() {
        return totalS > 0 ? Math.min(1, jitS / totalS) : Double.NaN;
    }

    /** The garbage collector's share, likewise. */
    public double gcShare() {
        return totalS > 0 ? Math.min(1, gcS / totalS) : Double.NaN;
    }
}
