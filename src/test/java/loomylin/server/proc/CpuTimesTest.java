package loomylin.server.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine's steal time from /proc/stat, which results.csv records per run. */
class CpuTimesTest {
    // user nice system idle iowait irq softirq steal guest guest_nice
    private static final String BEFORE = "cpu  1000 10 500 8000 40 0 50 400 0 0\ncpu0 500 5 250 4000 20 0 25 200 0 0\nintr 1 2 3\n";
    private static final String AFTER = "cpu  1600 10 700 8500 40 0 50 500 0 0\ncpu0 800 5 350 4250 20 0 25 250 0 0\nintr 4 5 6\n";

    @Test
    void stealIsItsShareOfAllTheTimeThatPassed() {
        CpuTimes before = CpuTimes.parse(BEFORE);
        CpuTimes after = CpuTimes.parse(AFTER);
        assertEquals(new CpuTimes(10_000, 400, 8040), before);
        // 600 user + 200 system + 500 idle + 100 steal passed; 100 of 1400 stolen
        assertEquals(100.0 * 100 / 1400, after.stealPctSince(before), 1e-9);
        assertTrue(Double.isNaN(before.stealPctSince(before)), "no time passed: no share");
    }

    @Test
    void busyIsTheShareNeitherIdleNorWaitingOnIo() {
        CpuTimes before = CpuTimes.parse(BEFORE);
        CpuTimes after = CpuTimes.parse(AFTER);
        // 1400 ticks passed, 500 of them idle (no I/O wait passed): 900 busy, steal included (the machine was not ours then either)
        assertEquals(100.0 * 900 / 1400, after.busyPctSince(before), 1e-9);
        assertTrue(Double.isNaN(before.busyPctSince(before)));
    }

    @Test
    void aFileWithoutTheCpuLineIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CpuTimes.parse("intr 1 2 3\n"));
        assertThrows(IllegalArgumentException.class, () -> CpuTimes.parse("cpu  1 2 3\n"));
    }

    @Test
    void theReaderFindsItUnderItsRootAndIsEmptyWithoutIt(@TempDir Path proc) throws Exception {
        assertTrue(new ProcReader(proc).cpuTimes().isEmpty());
        Files.writeString(proc.resolve("stat"), BEFORE);
        assertEquals(400, new ProcReader(proc).cpuTimes().orElseThrow().stealTicks());
        assertTrue(ProcReader.SYSTEM.cpuTimes().isPresent(), "this Linux machine has /proc/stat");
    }
}
