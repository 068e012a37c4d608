package loomylin.lab.engine.output;

import java.net.URI;
import java.util.stream.Collectors;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.RemoteRunExecutor;
import loomylin.lab.engine.run.RemoteServers;

/** report.md's method lines for a --target bench: which servers, and where their figures come from (or that none do). */
public final class RemoteReport {
    private RemoteReport() {
    }

    public static void method(StringBuilder md, BenchConfig config) {
        RemoteServers remote = config.remote();
        md.append("- Servers not started by the bench (`--target`): ")
                .append(remote.servers().stream().map(s -> "`" + s.pool() + "` at " + s.base() + " (" + s.twin() + " twin)")
                        .collect(Collectors.joining(", ")))
                .append(". They are not restarted between runs; each run checks its target answers `/pool`, warms it up for ")
                .append(config.warmup()).append(" with the run's own client at the run's own concurrency (and rate)")
                .append(", then makes the measured run (wrk or hey closed-loop, oha open-loop). The load generators and the bench ran on the machine above; the servers (and their backend, for /hops-*) wherever they run.\n");
        if (remote.metrics() == null) {
            md.append("- **Server figures: none.** No `--metrics` was given, so CPU s, CPU ms/req, RSS and threads are empty. ")
                    .append("Give the servers' admin port (`--metrics http://HOST:7004/metrics`) to fill them.\n");
            return;
        }
        md.append("- Server figures from ").append(remote.metrics()).append(", the Prometheus metrics of the servers' process ")
                .append("(the whole process: every server port it runs, and its in-process backend if it has one):\n");
        md.append("  - CPU s: `process_cpu_seconds_total` after the measured run minus before it; CPU ms/req: that per answered request.\n");
        md.append("  - idle RSS: `process_resident_memory_bytes` before the run's warm-up; the process is not restarted, so what earlier runs left is in it. ")
                .append("peak RSS and threads (`loomylin_os_threads{owner=\"total\"}`, OS threads): the most seen scraping every ")
                .append(RemoteRunExecutor.SCRAPE_EVERY.toMillis()).append(" ms during warm-up and run; a shorter peak can be missed.\n");
        md.append("  - The server's share of its machine's CPU is not known here (its cores are not this machine's); ")
                .append("P5's bound uses this machine's cores.\n");
        if (!remote.unreported().isEmpty())
            md.append("  - **Check:** the metrics' process reports ports ").append(remote.metricsPorts()).append(", not those of ")
                    .append(remote.unreported().stream().map(URI::toString).collect(Collectors.joining(", ")))
                    .append(": a port mapping, or the metrics of another process.\n");
    }
}
