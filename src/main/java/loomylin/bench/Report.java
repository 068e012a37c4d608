package loomylin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import loomylin.jetty.PoolKind;

/**
 * report.md: the machine, how the runs were made, the targets, then per endpoint a chart and a table with
 * every pool at each concurrency next to each other. Sections and rows follow the plan's order, so the same
 * bench writes the same layout every time.
 */
final class Report {
    private Report() {
    }

    static void write(Path file, BenchConfig config, String commandLine, Machine machine, List<RunSpec> plan, List<RunResult> rows,
                      List<Targets.Target> targets, List<Endpoint> charted, String failure) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Loomylin benchmark\n\n");
        md.append("Preset `").append(config.preset().name()).append("`, ").append(config.twin()).append(" twin, ")
                .append(rows.size()).append(" of ").append(plan.size()).append(" runs, ").append(machine.date()).append(".  \n");
        md.append("Command: `").append(commandLine).append("`\n\n");
        if (failure != null) md.append("**Incomplete:** ").append(failure).append("\n\n");

        md.append("## Machine\n\n| | |\n|---|---|\n");
        md.append("| CPU | ").append(machine.cores()).append(" cores").append(machine.cpu().isEmpty() ? "" : ", " + machine.cpu()).append(" |\n");
        md.append("| Memory | ").append(RunResult.fixed(machine.memoryKb() / 1024.0 / 1024.0, 1)).append(" GiB |\n");
        md.append("| JDK | ").append(machine.jdk()).append(" |\n");
        md.append("| OS | ").append(machine.os()).append(" |\n");
        md.append("| hey | ").append(machine.hey()).append(" |\n");
        md.append("| Date | ").append(machine.date()).append(" |\n\n");

        md.append("## Method\n\n");
        if (config.remote() != null) RemoteReport.method(md, config);
        else md.append("- Each run: a fresh server JVM serving one pool (`-Xms").append(config.heap()).append(" -Xmx").append(config.heap())
                .append(" -XX:+AlwaysPreTouch`, accept queue 4096, loopback); idle RSS read once it answers; a ")
                .append(config.warmup()).append(" warm-up with hey at min(c, ").append(config.warmupConcurrency())
                .append(") clients; then the measured hey run. The backend (for /hops-*, delay ").append(config.backendDelayMs())
                .append(" ms per call) runs in its own JVM for the whole bench.\n");
        md.append("- Requests per run: ").append(config.requests().describe()).append(". hey timeout ").append(config.timeoutS()).append(" s per request.\n");
        md.append("- req/s: 2xx responses per second, first request to last response. Latencies: exact nearest-rank percentiles of every response hey got.\n");
        md.append("- errors: requests without a 2xx answer (error status, or no answer at all: refused, reset, timed out).\n");
        if (config.remote() == null) { // a --target bench says where its server figures come from above
            md.append("- CPU s: the server JVM's user + system time during the measured run, from /proc/<pid>/stat.\n");
            md.append("- idle / peak RSS: resident memory before any load / its high-water mark (VmHWM) up to the end of the run, warm-up included. threads: most OS threads (platform threads; virtual threads are not OS threads), sampled every 100 ms.\n");
        }
        md.append("- client-limited: hey itself used more than ").append(config.clientLimitPct())
                .append("% of all cores: on a machine hey shares with the server, the load generator may then be the limit, not the server.\n\n");

        md.append("## Targets\n\n| | What | Value | Goal | Result | From |\n|---|---|---|---|---|---|\n");
        for (Targets.Target t : targets) {
            md.append("| ").append(t.id()).append(" | ").append(t.what()).append(" | ").append(t.valueText())
                    .append(" | ").append(t.goal()).append(" | ").append(t.result()).append(" | ").append(t.detail())
                    .append(t.runs().isEmpty() ? "" : " (" + t.runs() + ")").append(" |\n");
        }
        md.append('\n');

        List<PoolKind> pools = Plan.pools(plan);
        for (Endpoint e : Plan.endpoints(plan)) {
            md.append("## /").append(e).append("\n\n");
            if (charted.contains(e)) md.append("![").append(e).append("](").append(Charts.fileName(e)).append(")\n\n");
            List<RunResult> mine = rows.stream().filter(r -> r.spec().endpoint().equals(e))
                    .sorted(Comparator.comparingInt((RunResult r) -> r.spec().concurrency()).thenComparingInt(r -> pools.indexOf(r.spec().pool())))
                    .toList();
            if (mine.isEmpty()) {
                md.append("No finished runs.\n\n");
                continue;
            }
            pivot(md, mine, pools);
            md.append("| c | pool | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | CPU s | idle RSS MB | peak RSS MB | threads | client-limited |\n");
            md.append("|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
            for (RunResult r : mine) {
                md.append("| ").append(r.spec().concurrency()).append(" | ").append(r.spec().pool())
                        .append(" | ").append(RunResult.fixed(r.rps(), 1))
                        .append(" | ").append(RunResult.fixed(r.p50Ms(), 1))
                        .append(" | ").append(RunResult.fixed(r.p90Ms(), 1))
                        .append(" | ").append(RunResult.fixed(r.p99Ms(), 1))
                        .append(" | ").append(RunResult.fixed(r.maxMs(), 1))
                        .append(" | ").append(r.errors())
                        .append(" | ").append(RunResult.fixed(r.cpuS(), 2))
                        .append(" | ").append(RunResult.fixed(RunResult.mb(r.idleRssKb()), 0))
                        .append(" | ").append(RunResult.fixed(RunResult.mb(r.peakRssKb()), 0))
                        .append(" | ").append(RunResult.count(r.peakThreads()))
                        .append(" | ").append(r.clientLimited() ? "yes (" + RunResult.fixed(r.clientCpuPct(), 0) + "%)" : "no")
                        .append(" |\n");
            }
            md.append('\n');
        }
        Files.writeString(file, md, StandardCharsets.UTF_8);
    }

    /** Throughput and p99 with the pools as columns: the comparison at a glance, before the full table. */
    private static void pivot(StringBuilder md, List<RunResult> rows, List<PoolKind> allPools) {
        List<PoolKind> pools = allPools.stream().filter(p -> rows.stream().anyMatch(r -> r.spec().pool().equals(p))).toList();
        md.append("| c |");
        pools.forEach(p -> md.append(' ').append(p).append(" |"));
        md.append("\n|--:|");
        pools.forEach(p -> md.append("--:|"));
        md.append('\n');
        for (int c : rows.stream().map(r -> r.spec().concurrency()).distinct().sorted().toList()) {
            md.append("| ").append(c).append(" |");
            for (PoolKind p : pools) {
                RunResult r = rows.stream().filter(x -> x.spec().pool().equals(p) && x.spec().concurrency() == c).findFirst().orElse(null);
                md.append(' ').append(r == null ? "" : RunResult.fixed(r.rps(), 0) + " req/s, p99 " + RunResult.fixed(r.p99Ms(), 0) + " ms"
                        + (r.errors() > 0 ? ", " + r.errors() + " errors" : "")).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }
}
