package loomylin.lab.engine.measure;

import java.time.Duration;
import loomylin.server.proc.ProcReader;

/**
 * Samples a server process while load runs (every {@code every}) and keeps the peaks: resident memory,
 * address space, OS threads. It also follows the load generator, when told its pid, so that its CPU time
 * is known even if the bench could not read it after exit.
 *
 * <p>Resident memory and address space also take the kernel's own high-water marks (VmHWM, VmPeak), which
 * catch what falls between two samples; the thread count has no such mark, so a spike shorter than the
 * interval can be missed.
 */
public final class ProcSampler implements AutoCloseable {

    /** The peaks seen so far; {@code clientTicks} is the last CPU time read of the followed client. */
    public record Peaks(long rssKb, long vszKb, int threads, long clientTicks, int samples) {
    }

    private final ProcReader proc;
    private final long serverPid;
    private final Duration every;
    private final Periodic periodic;
    private volatile long clientPid = -1;

    private long peakRssKb;
    private long peakVszKb;
    private int peakThreads;
    private long clientTicks;
    private int samples;

    public ProcSampler(ProcReader proc, long serverPid, Duration every) {
        this.proc = proc;
        this.serverPid = serverPid;
        this.every = every;
        this.periodic = new Periodic("bench-sampler", every, this::sampleOnce);
    }

    public void start() {
        periodic.start();
    }

    /** Follows this client process's CPU time from now on (its last reading stays when it exits). */
    public void followClient(long pid) {
        clientPid = pid;
    }

    public synchronized void sampleOnce() {
        proc.status(serverPid).ifPresent(s -> {
            samples++;
            peakRssKb = Math.max(peakRssKb, Math.max(s.rssKb(), s.hwmKb()));
            peakVszKb = Math.max(peakVszKb, Math.max(s.vszKb(), s.peakVszKb()));
            peakThreads = Math.max(peakThreads, s.threads());
        });
        long client = clientPid;
        if (client > 0) proc.stat(client).ifPresent(s -> clientTicks = Math.max(clientTicks, s.cpuTicks()));
    }

    public synchronized Peaks peaks() {
        return new Peaks(peakRssKb, peakVszKb, peakThreads, clientTicks, samples);
    }

    /** Stops sampling, after one last sample so the peaks include the moment of the call. */
    @Override
    public void close() {
        periodic.stop(Duration.ofMillis(Math.max(1000, every.toMillis() * 5)));
        sampleOnce();
    }
}
