package loomylin.lab.engine.measure;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import loomylin.server.proc.ProcReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sampler keeps peaks across samples; the /proc files are recorded ones, rewritten between samples. */
class ProcSamplerTest {
    @TempDir
    Path proc;

    private void write(long pid, String file, String text) throws IOException {
        Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(proc.resolve(Long.toString(pid)).resolve(file), text);
    }

    private static String status(long rssKb, long hwmKb, long vszKb, long peakKb, int threads) {
        return "Name:\tjava\nVmPeak:\t" + peakKb + " kB\nVmSize:\t" + vszKb + " kB\nVmHWM:\t" + hwmKb + " kB\nVmRSS:\t"
                + rssKb + " kB\nThreads:\t" + threads + "\n";
    }

    private static String stat(long pid, long utime, long stime) {
        return pid + " (hey) S 1 1 1 0 -1 0 0 0 0 0 " + utime + " " + stime + " 0 0 20 0 6 0 1 1000000 100 0";
    }

    @Test
    void keepsTheHighestOfEverySample() throws IOException {
        ProcSampler sampler = new ProcSampler(new ProcReader(proc), 10, Duration.ofMillis(100));
        write(10, "status", status(300_000, 300_000, 2_000_000, 2_000_000, 25));
        sampler.sampleOnce();
        write(10, "status", status(350_000, 360_000, 2_100_000, 2_200_000, 40));
        sampler.sampleOnce();
        write(10, "status", status(320_000, 360_000, 2_050_000, 2_200_000, 30));
        sampler.sampleOnce();
        ProcSampler.Peaks p = sampler.peaks();
        assertEquals(360_000, p.rssKb()); // VmHWM caught a peak between samples
        assertEquals(2_200_000, p.vszKb());
        assertEquals(40, p.threads());
        assertEquals(3, p.samples());
    }

    @Test
    void aProcessThatIsGoneAddsNoSample() throws IOException {
        ProcSampler sampler = new ProcSampler(new ProcReader(proc), 11, Duration.ofMillis(100));
        sampler.sampleOnce();
        assertEquals(0, sampler.peaks().samples());
        assertEquals(0, sampler.peaks().rssKb());
    }

    @Test
    void followsTheClientsCpuTimeAndKeepsItAfterExit() throws IOException {
        ProcSampler sampler = new ProcSampler(new ProcReader(proc), 10, Duration.ofMillis(100));
        write(10, "status", status(1, 1, 1, 1, 1));
        sampler.followClient(20);
        write(20, "stat", stat(20, 30, 12));
        sampler.sampleOnce();
        write(20, "stat", stat(20, 80, 25));
        sampler.sampleOnce();
        Files.delete(proc.resolve("20").resolve("stat")); // hey exited and was reaped
        sampler.sampleOnce();
        assertEquals(105, sampler.peaks().clientTicks());
    }

    @Test
    void samplesTheRecordedServerOnItsOwnThread() throws Exception {
        ProcSampler sampler = new ProcSampler(new ProcReader(Path.of(getClass().getResource("/proc").toURI())), 22233, Duration.ofMillis(5)); // recorded in loomylin.server.proc's ProcTest
        sampler.start();
        // the sampler's own thread must take samples: without it, only close()'s last sample would exist
        await("samples from the sampler thread").atMost(Duration.ofSeconds(10)).until(() -> sampler.peaks().samples() >= 2);
        sampler.close();
        ProcSampler.Peaks p = sampler.peaks();
        assertTrue(p.samples() >= 3, "two from the thread, one from close(): " + p);
        assertEquals(348512, p.rssKb());
        assertEquals(2871344, p.vszKb());
        assertEquals(26, p.threads());
    }
}
