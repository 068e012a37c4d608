package loomylin.lab.engine.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.HeyRun;
import loomylin.lab.engine.load.OhaRun;
import loomylin.lab.engine.load.WrkRun;
import loomylin.server.proc.CpuTimes;
import loomylin.lab.engine.measure.FlightRecording;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.measure.Measured;
import loomylin.server.proc.ProcReader;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.server.proc.ProcStat;
import loomylin.server.proc.ProcStatus;
import loomylin.server.cli.StartupFailure;
import loomylin.server.jetty.PoolKind;

/**
 * Makes one run: a fresh server JVM on the run's pool, its idle memory, a warm-up with the run's own client at
 * the run's own concurrency (and rate) until its rate settled and the server's JIT is quiet, then the measured run
 * (wrk or hey closed-loop, oha open-loop) while {@link ProcSampler} watches the server; the server is stopped
 * whatever happens.
 */
public final class RunExecutor implements RunMaker {
    /** Lets the JVM finish start-up work (class loading, first compilations) before idle memory is read. */
    private static final Duration SETTLE = Duration.ofMillis(300);
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);
    private static final int START_ATTEMPTS = 3;

    private final BenchConfig config;
    private final java.util.Map<Client, Path> tools;
    private final URI backend;
    /** The backend JVM's process id, or -1 when the bench started none: its CPU is read around each window. */
    private final long backendPid;
    private final Path serversLog;
    private final int cores;

    public RunExecutor(BenchConfig config, java.util.Map<Client, Path> tools, URI backend, long backendPid, Path serversLog, int cores) {
        this.config = config;
        this.tools = tools;
        this.backend = backend;
        this.backendPid = backendPid;
        this.serversLog = serversLog;
        this.cores = cores;
    }

    @Override
    public RunResult execute(RunSpec run) throws IOException, InterruptedException {
        ServerProcess server = start(run);
        try {
            Thread.sleep(SETTLE.toMillis());
            long idleRssKb = ProcReader.SYSTEM.status(server.pid()).map(ProcStatus::rssKb)
                    .orElseThrow(() -> new StartupFailure("server " + run.pool() + " exited before the run: " + server.outputTail()));
            URI url = server.uri(run.endpoint().pathAndQuery());
            try (ProcSampler sampler = new ProcSampler(ProcReader.SYSTEM, server.pid(), SAMPLE_EVERY)) {
                sampler.start();
                WarmedUp warmedUp = warmUp(config, tools, clientCpus(), run, url, server.pid());
                FlightRecording recording = config.jfr() ? FlightRecording.start(server.pid(), jfrFile(run)) : null;
                long cpuBefore = cpuTicks(server);
                long backendBefore = backendTicks(run);
                Optional<CpuTimes> machineBefore = ProcReader.SYSTEM.cpuTimes();
                JvmCpu.Snapshot threadsBefore = JvmCpu.snapshot(ProcReader.SYSTEM, server.pid());
                Measured measured = measure(config, tools, clientCpus(), run, url, warmedUp.rps(), sampler);
                JvmCpu jvm = JvmCpu.between(threadsBefore, JvmCpu.snapshot(ProcReader.SYSTEM, server.pid()));
                long cpuAfter = cpuTicks(server);
                long backendAfter = backendTicks(run);
                if (recording != null) FlightRecording.appendCsv(jfrCsv(), run.describe(), jfrFile(run), recording.stop());
                double stealPct = machineBefore.flatMap(b -> ProcReader.SYSTEM.cpuTimes().map(a -> a.stealPctSince(b))).orElse(Double.NaN);
                sampler.close();
                if (!server.alive()) throw new StartupFailure("server " + run.pool() + " exited during the run: " + server.outputTail());
                RunResult result = result(run, measured, warmedUp, (cpuAfter - cpuBefore) / ProcStat.TICKS_PER_SECOND, idleRssKb, sampler.peaks(), stealPct)
                        .withJvm(jvm);
                return backendBefore < 0 || backendAfter < 0 ? result : result.withBackendCpuS((backendAfter - backendBefore) / ProcStat.TICKS_PER_SECOND);
            }
        } finally {
            server.close();
        }
    }

    /** Where --jfr writes a run's recording: beside results.csv, in jfr/. */
    private Path jfrFile(RunSpec run) {
        String name = run.describe().replaceAll("[^A-Za-z0-9.=-]+", "_");
        return serversLog.resolveSibling("jfr").resolve(name + ".jfr");
    }

    private Path jfrCsv() {
        return serversLog.resolveSibling(FlightRecording.CSV);
    }

    /** The CPUs the load generator may use: its --client-cpus, or every core. */
    private int clientCpus() {
        return config.cpuSets().cpus(CpuSets.Role.CLIENT, cores);
    }

    /**
     * The measured run with the run's client, pinned to --client-cpus when given; {@code clientCpus} sizes wrk's
     * threads; {@code sampler} follows the client's CPU (and the server's, when local).
     */
    public static Measured measure(BenchConfig config, java.util.Map<Client, Path> tools, int clientCpus, RunSpec run, URI url, double warmupRps,
                            ProcSampler sampler) throws IOException {
        int timeout = config.timeoutS();
        List<String> pin = config.cpuSets().prefix(CpuSets.Role.CLIENT);
        return switch (run.client()) {
            case HEY -> HeyRun.measure(pin, tools.get(Client.HEY), url, requests(config, run, warmupRps), run.concurrency(), timeout, sampler);
            case WRK -> WrkRun.measure(pin, tools.get(Client.WRK), url, Windows.closedS(config.measureS(), run.endpoint()), run.concurrency(), timeout,
                    clientCpus, sampler);
            case OHA -> OhaRun.measure(pin, tools.get(Client.OHA), url, Math.max(1, run.rate() * config.openMeasureS()), run.rate(),
                    run.concurrency(), timeout, sampler);
        };
    }

    /**
     * The most warm-up slices a run makes before its window, settled or not. 8, not the 4 that sufficed while slices
     * compared rates alone: at a few hundred requests a second a fresh server's CPU per request falls for about 30 s
     * while its rate holds (issue 50), and 4 slices of the publishing presets' 4 s (half of --warmup 8s) would end
     * such a run cold every time; 8 leave it 32 s, as {@link FixedLoad#MAX_SLICES} does. A warm-up that settles
     * with the JIT quiet still lasts --warmup; only a run whose JIT is busy pays the longer one.
     */
    public static final int MAX_WARMUP_SLICES = 8;

    /** No server JVM on this machine to read (a --target's): its warm-up compares rates alone and records no {@code warm}. */
    public static final long NO_PID = -1;

    /**
     * How a warm-up, or one slice of it, ended: its last slice's 2xx answers per second and, closed loop with wrk,
     * its rate by Little's law ({@link Measured#littleRps}; NaN otherwise), whether two slices in a row agreed
     * ({@code settled}), and whether the server's JIT was quiet in the last ({@code warm}, {@link Warmup#quiet}; null
     * where not read: hey, a one-slice warm-up, a --target).
     */
    public record WarmedUp(double rps, double littleRps, boolean settled, Boolean warm) {
        /** The rate two slices, or the window and the warm-up, are compared by: Little's law's where known. */
        double settleRate() {
            return littleRps > 0 ? littleRps : rps;
        }

        WarmedUp agreed() {
            return new WarmedUp(rps, littleRps, true, warm);
        }

        WarmedUp withWarm(Boolean quiet) {
            return new WarmedUp(rps, littleRps, settled, quiet);
        }

        /** The warm-up may end here: the rate settled and, where the server's JIT was read, it was quiet in this slice. */
        public boolean done() {
            return settled && !Boolean.FALSE.equals(warm);
        }
    }

    /** One warm-up slice, made when asked. */
    @FunctionalInterface
    public interface Slicer {
        WarmedUp next() throws IOException;
    }

    /**
     * The warm-up just before a measured run: the run's own client at the run's own concurrency (and offered
     * rate), so that the connections (the server's and, behind /hops-*, the backend's) are open and the JIT has
     * run before the window opens. In slices of half {@code --warmup} ({@link #slices}) until two in a row answer
     * the same rate ({@link WarmedUp#settleRate()}) within {@link RunResult#SETTLED_WITHIN} and, with wrk or oha,
     * the server JVM {@code pid}'s compiler threads were quiet in the last ({@link Warmup#quiet}, read as
     * {@link Warmup#watch} reads it); at least 2, at most {@link #MAX_WARMUP_SLICES}. A warm-up under 2 s is one
     * slice (a smoke run) and records neither. Returns the last slice's rates, which results.csv shows beside the
     * measured ones, whether two slices agreed ({@code settled}) and whether the JIT was quiet ({@code warm}).
     */
    public static WarmedUp warmUp(BenchConfig config, java.util.Map<Client, Path> tools, int clientCpus, RunSpec run, URI url, long pid)
            throws IOException {
        int seconds = warmupSeconds(config.warmup());
        if (seconds < 2) return slice(config, tools, clientCpus, run, url, seconds, config.warmup());
        int slice = seconds / 2;
        // hey's runs decide nothing: its warm-up compares rates alone, as it always did.
        boolean watched = pid != NO_PID && run.client() != Client.HEY;
        return slices(MAX_WARMUP_SLICES, () -> {
            if (!watched) return slice(config, tools, clientCpus, run, url, slice, slice + "s");
            Warmup.Watched<WarmedUp> w = Warmup.watch(ProcReader.SYSTEM, pid, () -> slice(config, tools, clientCpus, run, url, slice, slice + "s"));
            return w.value().withWarm(w.quiet());
        });
    }

    /**
     * The warm-up's rule on {@code slicer}'s slices: each marked settled when it answered the rate of the one before
     * ({@link #settles}), ending on the first that is {@link WarmedUp#done() done}, else after {@code maxSlices}
     * with the last (its {@code settled} and {@code warm} say how it ran out: a run whose last slice was not quiet is
     * cold).
     */
    public static WarmedUp slices(int maxSlices, Slicer slicer) throws IOException {
        WarmedUp previous = null;
        for (int i = 1; i <= maxSlices; i++) {
            WarmedUp last = slicer.next();
            if (previous != null && settles(previous.settleRate(), last.settleRate())) last = last.agreed();
            if (last.done()) return last;
            previous = last;
        }
        return previous;
    }

    /** Whether a warm-up slice answering {@code rps} after one answering {@code previous} has settled. */
    public static boolean settles(double previous, double rps) {
        return RunResult.within(rps, previous);
    }

    private static WarmedUp slice(BenchConfig config, java.util.Map<Client, Path> tools, int clientCpus, RunSpec run, URI url, int seconds,
                                  String heyDuration) throws IOException {
        List<String> pin = config.cpuSets().prefix(CpuSets.Role.CLIENT);
        Measured m = switch (run.client()) {
            case HEY -> null;
            case WRK -> WrkRun.measure(pin, tools.get(Client.WRK), url, seconds, run.concurrency(), config.timeoutS(), clientCpus, null);
            case OHA -> OhaRun.measure(pin, tools.get(Client.OHA), url, Math.max(1, run.rate() * seconds), run.rate(), run.concurrency(),
                    config.timeoutS(), null);
        };
        if (m == null) return new WarmedUp(HeyRun.warmUp(pin, tools.get(Client.HEY), url, heyDuration, run.concurrency(), config.timeoutS()), Double.NaN, false, null);
        return new WarmedUp(m.okRps(), run.client() == Client.WRK ? m.littleRps(run.concurrency()) : Double.NaN, false, null);
    }

    /**
     * What the settle rule reads of a run: whether its warm-up agreed and ended with the JIT quiet (not recorded for
     * hey, whose runs decide nothing), and, closed loop with wrk, its window's and warm-up's rates by Little's law.
     */
    static RunResult.Settle settle(RunSpec run, Measured window, WarmedUp warmedUp) {
        if (run.client() == Client.HEY) return RunResult.Settle.NONE;
        return new RunResult.Settle(warmedUp.settled(), run.client() == Client.WRK ? window.littleRps(run.concurrency()) : Double.NaN, warmedUp.littleRps(),
                warmedUp.warm());
    }

    /** wrk and oha take whole seconds: a warm-up of 500ms lasts 1 s with them. */
    public static int warmupSeconds(String warmup) {
        Duration d = loomylin.server.cli.Durations.parse("--warmup", warmup, Duration.ofMillis(1), Duration.ofHours(1));
        return (int) Math.max(1, (d.toMillis() + 999) / 1000);
    }

    /** A hey run's count: what the warm-up achieved in the measured window, within the rule. */
    public static int requests(BenchConfig config, RunSpec run, double warmupRps) {
        return config.requests().requestsFor(run.concurrency(), Math.round(warmupRps * Windows.closedS(config.measureS(), run.endpoint())));
    }

    /**
     * Warms the shared backend JVM before the first measured run, through a throwaway loom server calling
     * it with both hop endpoints: otherwise the first /hops-* run measures a cold backend's JIT as well as
     * its own server.
     */
    public void warmBackend() throws IOException {
        ServerProcess server = start(new RunSpec(PoolKind.loom(), Endpoint.parse("hops-async"), config.warmupConcurrency(), 0, Client.WRK, 1));
        try {
            for (String route : List.of("/hops-async?delay=0", "/hops-blocking?delay=0"))
                WrkRun.measure(config.cpuSets().prefix(CpuSets.Role.CLIENT), tools.get(Client.WRK), server.uri(route),
                        warmupSeconds(config.warmup()), config.warmupConcurrency(), config.timeoutS(), clientCpus(), null);
        } finally {
            server.close();
        }
    }

    /** Picks a free port; if another process grabs it before the server binds, tries another. */
    private ServerProcess start(RunSpec run) throws IOException {
        for (int attempt = 1; ; attempt++) {
            ServerProcess server = ServerProcess.server(config.cpuSets().prefix(CpuSets.Role.SERVER), run.pool().toString(), config.twin(), config.heap(),
                    FreePort.pick(), backend, config.hopClient(), serversLog, List.of(), config.serverJvmOptions());
            try {
                server.awaitPool(run.pool().toString(), config.twin());
                return server;
            } catch (StartupFailure e) {
                server.close();
                if (!server.portTaken() || attempt == START_ATTEMPTS) throw e;
            }
        }
    }

    /** The backend's CPU ticks so far, or -1 when the run calls no backend or the bench started none. */
    private long backendTicks(RunSpec run) {
        if (backendPid < 0 || !run.endpoint().usesBackend()) return -1;
        return ProcReader.SYSTEM.stat(backendPid).map(ProcStat::cpuTicks).orElse(-1L);
    }

    private static long cpuTicks(ServerProcess server) {
        return ProcReader.SYSTEM.stat(server.pid()).map(ProcStat::cpuTicks)
                .orElseThrow(() -> new StartupFailure("server exited during the run: " + server.outputTail()));
    }

    private RunResult result(RunSpec run, Measured m, WarmedUp warmedUp, double cpuS, long idleRssKb, ProcSampler.Peaks peaks, double stealPct) {
        double machineS = m.wallS() * cores;
        double clientPct = 100.0 * m.clientCpuS() / machineS;
        return new RunResult(run, config.twin(), m.sent(), m.answered(), m.ok(), m.sent() - m.ok(), m.wallS(), m.ok() / m.wallS(),
                warmedUp.rps(), m.latency(), cpuS, idleRssKb, Math.max(peaks.rssKb(), idleRssKb), peaks.vszKb(), peaks.threads(),
                m.clientCpuS(), clientPct, 100.0 * cpuS / machineS, ClientLimit.of(clientPct, 100.0 * cpuS / machineS, clientCpus(), cores,
                        config.cpuSets().share(CpuSets.Role.CLIENT, CpuSets.Role.SERVER), config.clientLimitPct()), stealPct)
                .withSettle(settle(run, m, warmedUp));
    }
}
