package loomylin.lab.engine.run;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.server.cli.StartupFailure;
import loomylin.server.proc.CpuTimes;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStat;
import loomylin.server.proc.ProcStatus;

/**
 * One measured run on a server JVM the caller started, with windows the caller chooses (wrk for a time,
 * oha for rate x time): the server's idle memory, a warm-up load, then the measured load while
 * {@link ProcSampler} watches the server, its CPU time from /proc around the measured window alone. The row is
 * the same {@link RunResult} the bench writes. The caller stops the server.
 */
public final class TimedRun {
    /** Lets the JVM finish start-up work (class loading, first compilations) before idle memory is read. */
    private static final Duration SETTLE = Duration.ofMillis(300);
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

    private TimedRun() {
    }

    /** A load on the server: the warm-up or the measured window. */
    @FunctionalInterface
    public interface Load {
        Measured run(URI url, ProcSampler sampler) throws IOException;
    }

    /**
     * @param clientLimitPct how busy counts as saturated for {@link ClientLimit}: client and server share every core here
     */
    public static RunResult run(ServerProcess server, RunSpec spec, String twin, int cores, int clientLimitPct, Load warmup, Load measured)
            throws IOException, InterruptedException {
        Thread.sleep(SETTLE.toMillis());
        long idleRssKb = ProcReader.SYSTEM.status(server.pid()).map(ProcStatus::rssKb)
                .orElseThrow(() -> new StartupFailure("server " + spec.pool() + " exited before the run: " + server.outputTail()));
        URI url = server.uri(spec.endpoint().pathAndQuery());
        try (ProcSampler sampler = new ProcSampler(ProcReader.SYSTEM, server.pid(), SAMPLE_EVERY)) {
            sampler.start();
            Measured w = warmup.run(url, null);
            double warmupRps = w.okRps();
            long cpuBefore = cpuTicks(server);
            Optional<CpuTimes> machineBefore = ProcReader.SYSTEM.cpuTimes();
            JvmCpu.Snapshot threadsBefore = JvmCpu.snapshot(ProcReader.SYSTEM, server.pid());
            Measured m = measured.run(url, sampler);
            JvmCpu jvm = JvmCpu.between(threadsBefore, JvmCpu.snapshot(ProcReader.SYSTEM, server.pid()));
            long cpuAfter = cpuTicks(server);
            double stealPct = machineBefore.flatMap(b -> ProcReader.SYSTEM.cpuTimes().map(a -> a.stealPctSince(b))).orElse(Double.NaN);
            sampler.close();
            if (!server.alive()) throw new StartupFailure("server " + spec.pool() + " exited during the run: " + server.outputTail());
            ProcSampler.Peaks peaks = sampler.peaks();
            double cpuS = (cpuAfter - cpuBefore) / ProcStat.TICKS_PER_SECOND;
            double machineS = m.wallS() * cores;
            double clientPct = 100.0 * m.clientCpuS() / machineS;
            double serverPct = 100.0 * cpuS / machineS;
            return new RunResult(spec, twin, m.sent(), m.answered(), m.ok(), m.sent() - m.ok(), m.wallS(), m.ok() / m.wallS(),
                    warmupRps, m.latency(), cpuS, idleRssKb, Math.max(peaks.rssKb(), idleRssKb), peaks.vszKb(), peaks.threads(),
                    m.clientCpuS(), clientPct, serverPct, ClientLimit.of(clientPct, serverPct, cores, cores, true, clientLimitPct), stealPct).withJvm(jvm);
        }
    }

    private static long cpuTicks(ServerProcess server) {
        return ProcReader.SYSTEM.stat(server.pid()).map(ProcStat::cpuTicks)
                .orElseThrow(() -> new StartupFailure("server exited during the run: " + server.outputTail()));
    }
}
