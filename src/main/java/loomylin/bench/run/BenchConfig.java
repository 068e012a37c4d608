package loomylin.bench.run;

import java.nio.file.Path;
import java.util.List;
import loomylin.bench.load.Client;
import loomylin.bench.load.RequestRule;
import loomylin.jetty.HopClientKind;

/**
 * Everything one bench needs, read from the command line and environment by {@code loomylin.bench.BenchFlags}.
 *
 * @param tools           paths given by --hey, --wrk, --oha (absent: look on PATH)
 * @param hopClient       the servers' {@code --hop-client}: the blocking client behind /hops-blocking
 * @param measureS        the measured window in seconds (the preset's, or --measure)
 * @param remote          the servers of --target and the metrics of --metrics, or null: the bench starts its own
 * @param clientLimitPct  a run whose load generator used more than this share of the machine's CPU is
 *                        flagged client-limited
 */
public record BenchConfig(String preset, List<RunSpec> runs, Path out, java.util.Map<Client, Path> tools, String warmup, int warmupConcurrency,
                   RequestRule requests, int measureS, String twin, String heap, int backendDelayMs, int timeoutS, int clientLimitPct,
                   RemoteServers remote, HopClientKind hopClient) {
}
