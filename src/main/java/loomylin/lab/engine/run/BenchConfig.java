package loomylin.lab.engine.run;

import java.nio.file.Path;
import java.util.List;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.RequestRule;
import loomylin.server.jetty.HopClientKind;

/**
 * Everything one bench needs, read from the command line and environment by {@code loomylin.lab.bench.BenchFlags}.
 *
 * @param tools           paths given by --hey, --wrk, --oha (absent: look on PATH)
 * @param hopClient       the servers' {@code --hop-client}: the blocking client behind /hops-blocking
 * @param measureS        a closed-loop run's measured window in seconds (the preset's, or --measure)
 * @param openMeasureS    an open-loop run's (the preset's, or --measure)
 * @param remote          the servers of --target and the metrics of --metrics, or null: the bench starts its own
 * @param clientLimitPct  how busy, in percent, the client's CPUs (or the machine the client shares with the server)
 *                        must be for a run to be flagged client-limited ({@link ClientLimit})
 * @param cpuSets         the CPUs the servers, the load generator and the backend are pinned to (--server-cpus, ...)
 * @param invocations     how often the whole plan runs, each time with its own backend JVM; a target's verdict
 *                        compares the invocations' medians
 * @param jfr             record each server JVM's measured window with JDK Flight Recorder (--jfr)
 * @param carriers        the servers' virtual-thread scheduler parallelism (--carriers); 0: the JDK's default, one per core
 */
public record BenchConfig(String preset, List<RunSpec> runs, Path out, java.util.Map<Client, Path> tools, String warmup, int warmupConcurrency,
                   RequestRule requests, int measureS, int openMeasureS, String twin, String heap, int backendDelayMs, int timeoutS, int clientLimitPct,
                   RemoteServers remote, HopClientKind hopClient, CpuSets cpuSets, int invocations, boolean jfr, int carriers) {

    /** The server JVMs' options that {@code carriers} asks for: the virtual-thread scheduler's parallelism, and room for it in its pool. */
    public List<String> serverJvmOptions() {
        if (carriers == 0) return List.of();
        return List.of("-Djdk.virtualThreadScheduler.parallelism=" + carriers, "-Djdk.virtualThreadScheduler.maxPoolSize=" + Math.max(carriers, 256));
    }

    /** The same bench writing to {@code out}. */
    public BenchConfig withOut(Path out) {
        return new BenchConfig(preset, runs, out, tools, warmup, warmupConcurrency, requests, measureS, openMeasureS, twin, heap, backendDelayMs, timeoutS,
                clientLimitPct, remote, hopClient, cpuSets, invocations, jfr, carriers);
    }

    /**
     * Whether this bench's windows are long enough to back a published result: the closed-loop window when the plan
     * has closed-loop runs, the open-loop window when it has open-loop runs.
     */
    public boolean decides() {
        boolean closed = runs.stream().anyMatch(r -> !r.open());
        boolean open = runs.stream().anyMatch(RunSpec::open);
        return Windows.decide(closed ? measureS : Windows.DECIDING_CLOSED_S, open ? openMeasureS : Windows.DECIDING_OPEN_S);
    }
}
