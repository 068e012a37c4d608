package loomylin.lab.engine.output;

import loomylin.lab.engine.measure.FlightRecording;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.RunExecutor;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.lab.engine.run.Warmup;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jfr.PinPlace;

/**
 * report.md: the machine, how the runs were made, the targets, then per endpoint a chart and a table with
 * every pool at each level next to each other, as medians of the repeats with their min-max range.
 * Sections and rows follow the plan's order, so the same bench writes the same layout every time.
 */
public final class Report {
    private Report() {
    }

    /**
     * "48 of 48 runs (2 invocations of 24)": the plan is one invocation's, and the rows add up over every invocation
     * in the CSV, so the runs planned are the plan times the invocations the rows reach.
     */
    static String runsMade(List<RunSpec> plan, List<RunResult> rows) {
        int invocations = Math.max(1, rows.stream().mapToInt(RunResult::invocation).max().orElse(1));
        if (invocations == 1) return rows.size() + " of " + plan.size() + " runs";
        return rows.size() + " of " + (invocations * plan.size()) + " runs (" + invocations + " invocations of " + plan.size() + ")";
    }

    public static void write(Path file, BenchConfig config, Provenance provenance, List<RunSpec> plan, List<RunResult> rows,
                      List<Targets.Target> targets, List<String> charts, String failure) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Loomylin benchmark\n\n");
        md.append("Preset `").append(config.preset()).append("`, ").append(config.twin()).append(" twin, ")
                .append(runsMade(plan, rows)).append(", ").append(provenance.date()).append(".  \n");
        md.append("Command: `").append(provenance.command()).append("`\n\n");
        if (failure != null) md.append("**Incomplete:** ").append(failure).append("\n\n");
        decidesNothing(md, config, rows);

        md.append(provenance.markdown());

        md.append("## Method\n\n");
        if (config.remote() != null) RemoteReport.method(md, config);
        else md.append("- Each run: a fresh server JVM serving one pool (`-Xms").append(config.heap()).append(" -Xmx").append(config.heap())
                .append(" -XX:+AlwaysPreTouch").append(config.serverJvmOptions().isEmpty() ? "" : " " + String.join(" ", config.serverJvmOptions()))
                .append("`, accept queue 4096, loopback); idle RSS read once it answers; a ")
                .append(config.warmup()).append(" warm-up with the run's own client at the run's own concurrency (and offered rate), whose achieved rate is shown beside the measured one (warm-up req/s; a run is *settled* when the two lie within ")
                .append(Math.round(RunResult.SETTLED_WITHIN * 100)).append(" %); then the measured run, a ")
                .append(config.measureS()).append(" s window closed-loop (where a request waits so long that a client could not get ")
                .append(RunResult.MIN_ANSWERS_PER_CLIENT).append(" answers in it, that many waits and half again: `duration_s` has each run's), ")
                .append(config.openMeasureS()).append(" s open-loop. The backend (for /hops-*, delay ").append(config.backendDelayMs())
                .append(" ms per call) runs in its own JVM for the whole bench.\n")
                .append("- The warm-up runs in slices of half its length until two in a row answer the same rate (at least 2, at most ")
                .append(RunExecutor.MAX_WARMUP_SLICES).append("; under 2 s it is one slice, which records no `warm`). ")
                .append(Warmup.quietRule()).append(" A cold run reads `warm` false in results.csv; hey's warm-ups compare rates alone.\n");
        md.append("- Closed loop (`mode` closed): wrk runs for the window; hey (`--client hey`) sends ").append(config.requests().describe())
                .append(" and decides no target (NOT TIMED). Open loop (`mode` open): oha offers requests at a constant rate for the window over a fixed number of connections, latency counted from each request's intended send time (`--latency-correction`, as wrk2). Client timeout ")
                .append(config.timeoutS()).append(" s per request.\n");
        md.append("- Every configuration ran ").append(plan.stream().mapToInt(RunSpec::repeat).max().orElse(1))
                .append(" time(s), interleaved across pools (A B C A B C). Tables show the median with the min-max range of the runs the bench did not mark (*marked*: too short, cold, unsettled or client-limited, counted; a configuration with no other run reads *not decided*), and so do the charts; a target's ratio is taken per repeat (repeat i over repeat i) and reads PASS or MISS only when the whole range lies on one side of the goal, else NOISE. A target that reads a run with errors is ERRORS, never PASS; one that reads a run with fewer than ")
                .append(RunResult.MIN_ANSWERS).append(" answers, or closed-loop fewer than ").append(RunResult.MIN_ANSWERS_PER_CLIENT)
                .append(" per client, is TOO SHORT, and one that reads a cold, unsettled or client-limited run NOT DECIDED.\n");
        md.append("- req/s: 2xx answers per second of the client's wall time (start to exit), one definition for every client. Latencies: hey, exact nearest-rank percentiles of every answer; wrk and oha, their HdrHistograms.\n");
        md.append("- errors: requests without a 2xx answer (error status, or no answer at all: refused, reset, timed out).\n");
        if (config.remote() == null) { // a --target bench says where its server figures come from above
            md.append("- CPU ms/req: the server JVM's user + system time during the measured run (/proc/<pid>/stat) per answered request.\n");
            md.append("- idle / peak RSS: resident memory before any load / its high-water mark (VmHWM) up to the end of the run, warm-up included. threads: most OS threads (platform threads; virtual threads are not OS threads), sampled every 100 ms.\n");
        }
        md.append("- client-limited: the load generator kept ").append(config.clientLimitPct())
                .append("% or more of the CPUs it may use busy, or client and server together that share of the machine they share: the server was then not the only limit, and its throughput is a floor.\n\n");

        md.append("## Targets\n\n");
        int invocations = (int) rows.stream().map(RunResult::invocation).distinct().count();
        md.append(invocations < 2 ? "One invocation: a verdict that stands needs a second (`--invocations 2`, or another bench at another time).\n\n"
                : invocations + " invocations: each one's median beside the pooled median and range; a target whose invocations lie more than "
                + Math.round(Targets.INVOCATIONS_AGREE * 100) + " % apart reads NOISE.\n\n");
        md.append("| | What | Value | Invocations | Goal | Result | From |\n|---|---|---|---|---|---|---|\n");
        for (Targets.Target t : targets) {
            md.append("| ").append(t.id()).append(" | ").append(t.what()).append(" | ").append(t.valueText())
                    .append(" | ").append(t.invocationMedians().isEmpty() ? "-" : String.join(", ", t.invocationMedians().stream().map(m -> RunResult.fixed(m, 3)).toList()))
                    .append(" | ").append(t.goal()).append(" | ").append(t.result()).append(" | ")
                    .append(t.invalid() != null ? "**" + t.invalid() + "**" : t.detail())
                    .append(t.runs().isEmpty() ? "" : " (" + t.runs() + ")").append(" |\n");
        }
        md.append('\n');

        List<PoolKind> pools = RunSpec.pools(plan);
        List<Config> configs = Config.of(rows);
        knees(md, configs, pools);
        flightRecordings(md, file.resolveSibling(FlightRecording.CSV));
        for (Endpoint e : RunSpec.endpoints(plan)) {
            for (boolean open : List.of(false, true)) {
                if (plan.stream().noneMatch(r -> r.endpoint().equals(e) && r.open() == open)) continue;
                md.append("## /").append(e).append(open ? " (open loop)" : "").append("\n\n");
                String chart = Charts.fileName(e, open);
                if (charts.contains(chart)) md.append("![").append(e).append("](").append(chart).append(")\n\n");
                List<Config> mine = configs.stream().filter(c -> c.spec().endpoint().equals(e) && c.spec().open() == open)
                        .sorted(Comparator.comparingInt((Config c) -> c.spec().rate()).thenComparingInt(c -> c.spec().concurrency())
                                .thenComparingInt(c -> pools.indexOf(c.spec().pool())))
                        .toList();
                if (mine.isEmpty()) {
                    md.append("No finished runs.\n\n");
                    continue;
                }
                table(md, mine);
            }
        }
        Files.writeString(file, md, StandardCharsets.UTF_8);
    }

    /**
     * The report's first words when its runs cannot back a result: windows shorter than a publishing preset's,
     * or runs with too few answers.
     */
    private static void decidesNothing(StringBuilder md, BenchConfig config, List<RunResult> rows) {
        long shortRuns = rows.stream().filter(RunResult::tooShort).count();
        if (!config.decides())
            md.append("**These runs decide nothing:** their windows (").append(config.measureS()).append(" s closed-loop, ")
                    .append(config.openMeasureS()).append(" s open-loop) are shorter than the ").append(loomylin.lab.engine.run.Windows.DECIDING_CLOSED_S)
                    .append(" s and ").append(loomylin.lab.engine.run.Windows.DECIDING_OPEN_S)
                    .append(" s a result needs; use them to try the tool, not to choose a pool.\n\n");
        if (shortRuns > 0)
            md.append("**").append(shortRuns).append(" of ").append(rows.size()).append(" runs were too short** (fewer than ")
                    .append(RunResult.MIN_ANSWERS).append(" answers, or ").append(RunResult.MIN_ANSWERS_PER_CLIENT)
                    .append(" per client closed-loop): no target reads them as PASS or MISS.\n\n");
    }

    /** With --jfr: what each run's flight recording of its window holds (jfr.csv), one row per run. */
    private static void flightRecordings(StringBuilder md, Path csv) throws IOException {
        List<Map<String, String>> rows = FlightRecording.readCsv(csv);
        if (rows.isEmpty()) return;
        md.append("## Flight recordings (--jfr)\n\n")
                .append("Each server JVM's measured window, recorded with JDK Flight Recorder's `profile` settings (the files in `jfr/`; open them with `jfr print` or JDK Mission Control). ")
                .append("GC pause: the collector's pauses summed; pinned: `jdk.VirtualThreadPinned` events, a virtual thread blocked while pinned to its carrier, every pin however short ")
                .append("(threshold ").append(PinPlace.THRESHOLD.toMillis()).append(" ms; a recording made before that threshold has no pinned ms and counts pins of 20 ms or more), ")
                .append("pinned ms: how long they held their carriers, summed, and where most pinned (the first frames outside the JDK); ")
                .append("submit failed: `jdk.VirtualThreadSubmitFailed`; CPU samples: `jdk.ExecutionSample` by thread group (virtual threads together, platform threads by name with numbers as N).\n\n");
        md.append("| run | GC pause ms | GCs | pinned | pinned ms | most pinned at | submit failed | CPU samples | top thread groups |\n|---|--:|--:|--:|--:|---|--:|--:|---|\n");
        for (Map<String, String> f : rows) {
            md.append("| ").append(cell(f, "run")).append(" | ").append(cell(f, "gc_pause_ms")).append(" | ").append(cell(f, "gcs")).append(" | ").append(cell(f, "pinned"))
                    .append(" | ").append(cell(f, "pinned_ms")).append(" | ").append(cell(f, "most_pinned_at").replace("<", "&lt;")).append(" | ").append(cell(f, "submit_failed"))
                    .append(" | ").append(cell(f, "samples")).append(" | ").append(cell(f, "top_thread_groups")).append(" |\n");
        }
        md.append('\n');
    }

    /** A jfr.csv value, "-" where the file has none (a column added after it was written). */
    private static String cell(Map<String, String> row, String column) {
        String v = row.get(column);
        return v == null || v.isEmpty() ? "-" : v;
    }

    /** Each pool's knee in the open-loop /wait-blocking runs: Little's law beside the most it answered. */
    private static void knees(StringBuilder md, List<Config> configs, List<PoolKind> pools) {
        List<Config> open = configs.stream().filter(c -> c.spec().open() && c.spec().endpoint().route().equals("wait-blocking")).toList();
        if (open.isEmpty()) return;
        md.append("## Knees (open loop, /wait-blocking)\n\n");
        md.append("Predicted: Little's law, request threads / wait (a qtp:N pool has N - 2 request threads: one acceptor and one selector hold the rest); ")
                .append("pools on virtual threads have no thread limit, so only the offered rate bounds them. Measured: the most 2xx answers per second at any offered rate, median of the repeats the bench did not mark.\n\n");
        md.append("| pool | endpoint | predicted knee req/s | measured knee req/s | offered rates |\n|---|---|--:|--:|---|\n");
        for (PoolKind p : pools) {
            for (Endpoint e : open.stream().map(c -> c.spec().endpoint()).distinct().toList()) {
                List<Config> mine = open.stream().filter(c -> c.spec().pool().equals(p) && c.spec().endpoint().equals(e))
                        .map(Config::decided).filter(c -> !c.repeats().isEmpty()).toList();
                if (mine.isEmpty()) continue;
                double predicted = Targets.predictedKnee(p, e.intParam("ms").orElse(loomylin.server.web.Limits.MS_DEFAULT));
                Spread best = mine.stream().map(c -> c.spread(RunResult::rps)).max(Comparator.comparingDouble(Spread::median)).orElseThrow();
                md.append("| ").append(p).append(" | /").append(e).append(" | ")
                        .append(Double.isInfinite(predicted) ? "none (no thread limit)" : RunResult.fixed(predicted, 0)).append(" | ")
                        .append(best.text(1)).append(" | ")
                        .append(String.join(", ", mine.stream().map(c -> Integer.toString(c.spec().rate())).toList())).append(" |\n");
            }
        }
        md.append('\n');
    }

    private static void table(StringBuilder md, List<Config> mine) {
        md.append("| level | pool | client | req/s | warm-up req/s | p50 ms | p99 ms | p99.9 ms | max ms | errors | CPU ms/req | peak RSS MB | threads | client CPU % | marked |\n");
        md.append("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
        for (Config all : mine) {
            Config c = all.decided(); // the medians read only the runs the bench did not mark
            md.append("| ").append(c.spec().level()).append(" | ").append(c.spec().pool()).append(" | ").append(c.spec().client().label()).append(" | ");
            if (c.repeats().isEmpty()) md.append("not decided | - | - | - | - | - | ").append(all.errors()).append(" | - | - | - | - | ");
            else md.append(c.spread(RunResult::rps).text(1))
                    .append(" | ").append(c.spread(RunResult::warmupRps).text(1))
                    .append(" | ").append(c.spread(RunResult::p50Ms).text(1))
                    .append(" | ").append(c.spread(RunResult::p99Ms).text(1))
                    .append(" | ").append(c.spread(RunResult::p999Ms).text(1))
                    .append(" | ").append(c.spread(r -> r.latency().maxMs()).text(1))
                    .append(" | ").append(all.errors())
                    .append(" | ").append(c.spread(RunResult::cpuMsPerRequest).text(3))
                    .append(" | ").append(c.spread(r -> RunResult.mb(r.peakRssKb())).text(0))
                    .append(" | ").append(c.spread(RunResult::threadsOrNaN).text(0))
                    .append(" | ").append(c.spread(RunResult::clientCpuPct).text(0))
                    .append(" | ");
            md.append(all.marksText()).append(" |\n");
        }
        md.append('\n');
    }
}
