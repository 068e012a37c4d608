package loomylin.lab.engine.measure;

import java.net.URI;
import java.time.Duration;
import loomylin.server.cli.StartupFailure;

/**
 * Scrapes a server process's {@code /metrics} every {@code every} while load runs and keeps the peaks of
 * resident memory, address space and OS threads: the remote counterpart of {@link ProcSampler}. The
 * Prometheus process metrics have no high-water mark, so a peak shorter than the interval can be missed;
 * a scrape that fails (the server too busy to answer within its timeout) is counted and skipped.
 */
public final class MetricsSampler implements AutoCloseable {

    /** The peaks seen so far, over {@code samples} good scrapes ({@code failed} others). */
    public record Peaks(long rssKb, long vszKb, int threads, int samples, int failed) {
    }

    private final URI url;
    private final Duration every;
    private final Periodic periodic;

    private long peakRssKb = -1;
    private long peakVszKb = -1;
    private int peakThreads = -1;
    private int samples;
    private int failed;

    public MetricsSampler(URI url, Duration every) {
        this.url = url;
        this.every = every;
        this.periodic = new Periodic("bench-metrics-sampler", every, this::sampleOnce);
    }

    public void start() {
        periodic.start();
    }

    /** One scrape folded into the peaks; returns it, or null when it failed. */
    public MetricsScrape sampleOnce() {
        try {
            MetricsScrape s = MetricsScrape.from(url);
            synchronized (this) {
                samples++;
                peakRssKb = Math.max(peakRssKb, s.rssKb());
                peakVszKb = Math.max(peakVszKb, s.vszKb());
                peakThreads = Math.max(peakThreads, s.threads());
            }
            return s;
        } catch (StartupFailure e) {
            synchronized (this) {
                failed++;
            }
            return null;
        }
    }

    public synchronized Peaks peaks() {
        return new Peaks(peakRssKb, peakVszKb, peakThreads, samples, failed);
    }

    /** Stops sampling (the caller's own last scrape then closes the run). */
    @Override
    public void close() {
        periodic.stop(HttpGet.TIMEOUT.plus(HttpGet.CONNECT_TIMEOUT).plus(every));
    }
}
