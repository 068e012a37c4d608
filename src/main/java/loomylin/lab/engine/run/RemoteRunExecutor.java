package loomylin.lab.engine.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.HeyRun;
import loomylin.lab.engine.measure.HttpGet;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.MetricsSampler;
import loomylin.lab.engine.measure.MetricsScrape;
import loomylin.server.proc.ProcReader;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.server.cli.StartupFailure;

/**
 * Makes one run against a server the bench did not start ({@code --target}): checks it still answers,
 * scrapes the server process's figures from {@code /metrics} (when given) before the warm-up, around the
 * measured run (hey, wrk or oha) and every {@link #SCRAPE_EVERY} during both, and turns them into the same row a local
 * run makes. Without metrics the server's columns are empty. The server is not restarted between runs.
 */
public final class RemoteRunExecutor implements RunMaker {
    public static final Duration SCRAPE_EVERY = Duration.ofMillis(250);
    /** No server process on this machine: the client sampler follows hey only. */
    private static final long NO_SERVER = -1;
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(100);

    private final BenchConfig config;
    private final RemoteServers remote;
    private final Map<Client, Path> tools;
    private final int cores;

    public RemoteRunExecutor(BenchConfig config, Map<Client, Path> tools, int cores) {
        this.config = config;
        this.remote = config.remote();
        this.tools = tools;
        this.cores = cores;
    }

    @Override
    public RunResult execute(RunSpec run) throws IOException {
        RemoteServers.Server server = remote.server(run.pool());
        HttpGet.ok("target", URI.create(server.base() + "/pool"));
        URI url = URI.create(server.base() + run.endpoint().pathAndQuery());
        URI metrics = remote.metrics();
        MetricsScrape idle = metrics == null ? null : MetricsScrape.from(metrics);
        MetricsSampler sampler = metrics == null ? null : new MetricsSampler(metrics, SCRAPE_EVERY);
        try (ProcSampler client = new ProcSampler(ProcReader.SYSTEM, NO_SERVER, SAMPLE_EVERY)) {
            client.start();
            if (sampler != null) sampler.start();
            int clientCpus = config.cpuSets().cpus(CpuSets.Role.CLIENT, cores);
            RunExecutor.WarmedUp warmedUp = RunExecutor.warmUp(config, tools, clientCpus, run, url, RunExecutor.NO_PID);
            MetricsScrape before = metrics == null ? null : scrape(metrics, "before");
            Measured measured = RunExecutor.measure(config, tools, clientCpus, run, url, warmedUp.rps(), client);
            MetricsScrape after = metrics == null ? null : scrape(metrics, "after");
            if (sampler != null) sampler.close();
            return result(run, server.twin(), measured, warmedUp, idle, before, after, sampler == null ? null : sampler.peaks());
        } finally {
            if (sampler != null) sampler.close();
        }
    }

    private static MetricsScrape scrape(URI metrics, String when) {
        try {
            return MetricsScrape.from(metrics);
        } catch (StartupFailure e) {
            throw new StartupFailure("scrape " + when + " the measured run: " + e.getMessage());
        }
    }

    /** The same row as {@link RunExecutor}'s; the server's share of CPU is unknown (its cores are not ours). */
    private RunResult result(RunSpec run, String twin, Measured m, RunExecutor.WarmedUp warmedUp, MetricsScrape idle, MetricsScrape before,
                             MetricsScrape after, MetricsSampler.Peaks peaks) {
        double clientPct = 100.0 * m.clientCpuS() / (m.wallS() * cores);
        double cpuS = Double.NaN;
        long idleRss = -1, peakRss = -1, peakVsz = -1;
        int threads = -1;
        if (after != null) {
            cpuS = Math.max(0, after.cpuS() - before.cpuS());
            idleRss = idle.rssKb();
            peakRss = Math.max(peaks.rssKb(), Math.max(idle.rssKb(), Math.max(before.rssKb(), after.rssKb())));
            peakVsz = Math.max(peaks.vszKb(), Math.max(idle.vszKb(), Math.max(before.vszKb(), after.vszKb())));
            threads = Math.max(peaks.threads(), Math.max(idle.threads(), Math.max(before.threads(), after.threads())));
        }
        return new RunResult(run, twin, m.sent(), m.answered(), m.ok(), m.sent() - m.ok(), m.wallS(), m.ok() / m.wallS(),
                warmedUp.rps(), m.latency(), cpuS, idleRss, peakRss, peakVsz, threads,
                m.clientCpuS(), clientPct, Double.NaN, ClientLimit.of(clientPct, Double.NaN, config.cpuSets().cpus(CpuSets.Role.CLIENT, cores), cores, false,
                        config.clientLimitPct()), Double.NaN) // steal: the servers' machine is not ours to read
                .withSettle(RunExecutor.settle(run, m, warmedUp));
    }
}
