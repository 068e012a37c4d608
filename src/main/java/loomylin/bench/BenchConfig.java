package loomylin.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything one bench needs, read from the command line and environment by {@link BenchFlags}.
 *
 * @param hey             hey's path given by --hey, or null to look on PATH
 * @param clientLimitPct  a run whose load generator used more than this share of the machine's CPU is
 *                        flagged client-limited
 * @param hopClient       the servers' {@code --hop-client}: the blocking client behind /hops-blocking
 */
record BenchConfig(Preset preset, List<RunSpec> runs, Path out, Path hey, String warmup, int warmupConcurrency,
                   RequestRule requests, String twin, String heap, int backendDelayMs, int timeoutS, int clientLimitPct,
                   String hopClient) {
}
