package loomylin.lab.engine.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import loomylin.server.proc.ProcReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM's CPU split by its threads' names, from recorded /proc files and from this very JVM. */
class JvmCpuTest {
    @Test
    void threadNamesSayWhoTheyWorkFor() {
        for (String jit : new String[] {"C2 CompilerThre", "C1 CompilerThre", "JVMCI-native Co"}) assertEquals(JvmCpu.Role.JIT, JvmCpu.Role.of(jit), jit);
        for (String gc : new String[] {"GC Thread#0", "G1 Conc#0", "G1 Refine#0", "G1 Main Marker", "G1 Service", "VM Thread", "ZWorker#1"})
            assertEquals(JvmCpu.Role.GC, JvmCpu.Role.of(gc), gc);
        for (String other : new String[] {"qtp-4-12", "java", "VM Periodic Tas", "ForkJoinPool-1-", "Signal Dispatch", "Common-Cleaner"})
            assertEquals(JvmCpu.Role.OTHER, JvmCpu.Role.of(other), other);
    }

    /** Ticks are hundredths of a second; a thread that started between the snapshots counts whole, one that ended is in the total only. */
    @Test
    void theSplitIsWhatEachThreadSpentBetweenTwoSnapshots(@TempDir Path proc) throws IOException {
        write(proc, 1000, 100, new long[][] {{1000, 10}, {1001, 30}, {1002, 5}, {1003, 40}}, new String[] {"java", "C2 CompilerThre", "GC Thread#0", "C1 CompilerThre"});
        JvmCpu.Snapshot before = JvmCpu.snapshot(new ProcReader(proc), 1000);
        clear(proc);
        // 250 more ticks in all: C2 +50, GC +20, the C1 thread ended, a new C2 thread spent 20
        write(proc, 1000, 350, new long[][] {{1000, 100}, {1001, 80}, {1002, 25}, {1004, 20}}, new String[] {"java", "C2 CompilerThre", "GC Thread#0", "C2 CompilerThre"});
        JvmCpu split = JvmCpu.between(before, JvmCpu.snapshot(new ProcReader(proc), 1000));
        assertEquals(2.5, split.totalS(), 1e-9);
        assertEquals(0.7, split.jitS(), 1e-9);
        assertEquals(0.2, split.gcS(), 1e-9);
        assertEquals(0.28, split.jitShare(), 1e-9);
        assertNull(JvmCpu.snapshot(new ProcReader(proc), 4242), "a process that is gone has no snapshot");
        assertTrue(Double.isNaN(JvmCpu.between(before, null).totalS()));
    }

    /** This JVM's own threads: the compiler threads are there and named as the split expects. */
    @Test
    void aLiveJvmHasCompilerAndCollectorThreads() {
        long pid = ProcessHandle.current().pid();
        JvmCpu.Snapshot now = JvmCpu.snapshot(ProcReader.SYSTEM, pid);
        assertNotNull(now);
        assertTrue(now.threads().values().stream().anyMatch(t -> JvmCpu.Role.of(t.command()) == JvmCpu.Role.JIT), now.threads().toString());
        assertTrue(now.threads().values().stream().anyMatch(t -> JvmCpu.Role.of(t.command()) == JvmCpu.Role.GC), now.threads().toString());
    }

    private static void write(Path proc, long pid, long processTicks, long[][] threads, String[] names) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("stat"), stat(pid, "java", processTicks));
        for (int i = 0; i < threads.length; i++) {
            Path task = Files.createDirectories(dir.resolve("task").resolve(Long.toString(threads[i][0])));
            Files.writeString(task.resolve("stat"), stat(threads[i][0], names[i], threads[i][1]));
        }
    }

    private static void clear(Path proc) throws IOException {
        try (var walk = Files.walk(proc)) {
            walk.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(proc)).forEach(p -> p.toFile().delete());
        }
    }

    /** A /proc stat line: utime holds the ticks, stime 0. */
    private static String stat(long pid, String name, long ticks) {
        return pid + " (" + name + ") S 1 1 1 0 -1 4194560 100 0 0 0 " + ticks + " 0 0 0 20 0 1 0 100 1000000 200 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
    }
}
