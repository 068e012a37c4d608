package loomylin.lab.experiment.bound;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import loomylin.lab.engine.output.Charts;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.ClientLimit;
import loomylin.lab.engine.run.CpuSplit;
import loomylin.lab.engine.run.RunResult;

import static loomylin.lab.engine.result.Column.count;
import static loomylin.lab.engine.result.Column.fixed;
import static loomylin.lab.engine.result.Column.integer;
import static loomylin.lab.engine.result.Column.quoted;
import static loomylin.lab.engine.result.Column.text;
import static loomylin.lab.engine.result.Column.whole;
import loomylin.server.cli.Durations;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * bound.csv, bound.md (provenance, then a table per load: what each pool did past its bound, with and without
 * the limit, each run's CPU split and its marks) and {@code bound-<load>.png} (the runs without a mark): per load a
 * 3 x 2 grid of bar charts, the pools side by side, one bar without and one with {@code --max-in-flight}: answers per
 * second, p99, requests refused or unanswered, the longest queue, peak OS threads and RSS growth. Queue, refuse, or
 * grow, at a glance.
 */
final class BoundReport {
    private record Metric(String title, String unit, ToDoubleFunction<Bound.Row> value) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("answers per second (2xx)", "req/s", Bound.Row::rps),
            new Metric("p99 latency of answers", "ms", Bound.Row::p99Ms),
            new Metric("refused (non-2xx) + unanswered", "requests", r -> r.refused() + r.unanswered()),
            new Metric("longest queue (Jetty, limit, permits, carriers)", "requests", BoundReport::longestQueue),
            new Metric("peak OS threads", "threads", r -> r.peakThreads()),
            new Metric("RSS growth", "MB", Bound.Row::rssGrowthMb));

    private BoundReport() {
    }

    private static final Column<Bound.Row, String> LOAD = text("load", Bound.Row::load), POOL = text("pool", Bound.Row::pool),
            QUERY = quoted("query", Bound.Row::query), FAILURE = Column.<Bound.Row>quoted("failure", Bound.Row::failure).orElse(null);
    private static final Column<Bound.Row, Integer> INVOCATION = integer(Invocations.COLUMN, Bound.Row::invocation),
            LIMIT = integer("max_in_flight", Bound.Row::limit), CONCURRENCY = integer("concurrency", Bound.Row::concurrency),
            FAILED_SCRAPES = integer("failed_scrapes", Bound.Row::failedScrapes);
    private static final Column<Bound.Row, Long> SENT = whole("sent", Bound.Row::sent), OK = whole("ok", Bound.Row::ok), REFUSED = whole("refused", Bound.Row::refused),
            UNANSWERED = whole("unanswered", Bound.Row::unanswered), IDLE_THREADS = count("idle_threads", Bound.Row::idleThreads),
            PEAK_THREADS = count("peak_threads", Bound.Row::peakThreads);
    private static final Column<Bound.Row, Double> RPS = fixed("rps", 1, Bound.Row::rps), P99 = fixed("p99_ms", 1, Bound.Row::p99Ms),
            POOL_QUEUED = peak("pool_queued_peak", Bound.Row::poolQueued), ADMISSION_QUEUED = peak("admission_queued_peak", Bound.Row::admissionQueued),
            TASKS_WAITING = peak("tasks_waiting_peak", Bound.Row::tasksWaiting), CARRIER_QUEUED = peak("carrier_queued_peak", Bound.Row::carrierQueued),
            HEAP = fixed("heap_growth_mb", 1, Bound.Row::heapGrowthMb), RSS = fixed("rss_growth_mb", 1, Bound.Row::rssGrowthMb),
            RECOVERY_S = fixed("recovery_s", 2, Bound.Row::recoveryS);

    /**
     * bound.csv: a row per run, its invocation first; recovered and behaviour are computed from the run's figures,
     * recovered left empty for a failed run; then the CPU split and its marks ({@link CpuSplit#COLUMNS}). A file written
     * before the invocation column reads it as 0, one written before the split reads it as not recorded.
     */
    static final Table<Bound.Row> TABLE = new Table<>(java.util.stream.Stream.of(List.<Column<Bound.Row, ?>>of(INVOCATION, LOAD, POOL, LIMIT, CONCURRENCY,
                    QUERY, SENT, OK, REFUSED, UNANSWERED, RPS, P99, POOL_QUEUED, ADMISSION_QUEUED, TASKS_WAITING, CARRIER_QUEUED, IDLE_THREADS, PEAK_THREADS, HEAP,
                    RSS, Column.<Bound.Row>maybe("recovered", r -> r.failure() == null ? r.recovered() : null).computed(), RECOVERY_S, FAILED_SCRAPES,
                    Column.<Bound.Row>quoted("behaviour", Bound.Row::behaviour).computed()), Column.<Bound.Row, CpuSplit>of(CpuSplit.COLUMNS, Bound.Row::cpu), List.of(FAILURE))
            .<Column<Bound.Row, ?>>flatMap(List::stream).toList(), f -> new Bound.Row(f.get(INVOCATION), f.get(LOAD), f.get(POOL), f.get(LIMIT),
            f.get(CONCURRENCY), f.get(QUERY), f.get(SENT), f.get(OK), f.get(REFUSED), f.get(UNANSWERED), f.get(RPS), f.get(P99), f.get(POOL_QUEUED),
            f.get(ADMISSION_QUEUED), f.get(TASKS_WAITING), f.get(CARRIER_QUEUED), f.get(IDLE_THREADS).intValue(), f.get(PEAK_THREADS).intValue(), f.get(HEAP),
            f.get(RSS), f.get(RECOVERY_S), f.get(FAILED_SCRAPES), CpuSplit.read(f), f.get(FAILURE)));

    /** A queue's peak, whole; "" where the server has no such figure (negative), read back as -1. */
    private static Column<Bound.Row, Double> peak(String name, ToDoubleFunction<Bound.Row> value) {
        return new Column<>(name, value::applyAsDouble, v -> v < 0 ? "" : RunResult.fixed(v, 0), Double::parseDouble, -1.0);
    }

    static double longestQueue(Bound.Row r) {
        return Math.max(0, Math.max(Math.max(r.poolQueued(), r.admissionQueued()), Math.max(r.tasksWaiting(), r.carrierQueued())));
    }

    /** bound.md and the charts, from the runs of {@code invocation}. */
    static void write(Path dir, int invocation, Provenance provenance, List<Bound.Load> loads, List<Bound.Row> rows, Duration duration, int cores)
            throws IOException {
        StringBuilder md = new StringBuilder("# At the bound: what each pool shape does past it\n\n").append(provenance.markdown())
                .append(Invocations.oneInvocationNote(invocation, Bound.CSV));
        md.append("Each run: a fresh server JVM, a ").append(Durations.go(Bound.WARMUP)).append(" wrk warm-up on the probe, then wrk for ")
                .append(Durations.go(duration)).append(" (closed loop) on ").append(cores).append(" cores shared with wrk. Queues are peaks of the")
                .append(" admin port's /metrics sampled every ").append(Bound.SAMPLE_EVERY.toMillis()).append(" ms; threads and RSS from /proc;")
                .append(" recovered = a probe (`").append(Bound.PROBE).append("`) answered within ").append(Bound.PROMPT.toMillis())
                .append(" ms, at most ").append(Bound.RECOVERY_BOUND.toSeconds()).append(" s after the load stopped (seconds until it did).")
                .append(" CPU: the server JVM's and wrk's share of all cores over the load, and how busy the machine was (`server_cpu_pct`,")
                .append(" `client_cpu_pct`, `machine_busy_pct`); a run is marked client-limited when wrk kept ").append(ClientLimit.DEFAULT_PCT)
                .append(" % of the cores busy, or wrk and the server together that share of the machine, and machine full when client, server and the")
                .append(" rest of the machine together did: either way its figures were not the server's alone. A marked run is listed with its marks and")
                .append(" left out of the charts (where every run of a load is marked, they draw those, titled so: they decide nothing).");
        long unjudged = rows.stream().filter(r -> r.failure() == null && !r.cpu().recorded()).count();
        if (unjudged > 0) md.append(" The CPU split was not recorded for ").append(unjudged).append(unjudged == 1 ? " run" : " runs")
                .append(": not recorded, so ").append(unjudged == 1 ? "it" : "they").append(" cannot be judged client-limited or machine full.");
        md.append("\n\n");
        for (Bound.Load load : loads) {
            md.append("## ").append(load.name()).append(": ").append(load.description()).append("\n\n`").append(load.pathAndQuery())
                    .append("`, ").append(load.concurrency()).append(" clients; limited runs: `--max-in-flight ").append(load.limit()).append("`\n\n");
            md.append("| pool | limit | req/s | p99 ms | refused | unanswered | Jetty queue | limit queue | permit waits | carrier queue |")
                    .append(" OS threads (idle, peak) | heap growth MB | RSS growth MB | recovered | what it did | CPU % server, client, machine | marked |\n");
            md.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|--:|---|\n");
            for (Bound.Row r : rows) {
                if (!r.load().equals(load.name())) continue;
                if (r.failure() != null) {
                    md.append("| ").append(r.pool()).append(" | ").append(r.limit() == 0 ? "none" : r.limit()).append(" | N/A: ")
                            .append(r.failure().replace("|", "\\|")).append(" |||||||||||||||\n");
                    continue;
                }
                md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %s | %d | %d | %s | %s | %s | %s | %d, %d | %s | %s | %s | %s | %s | %s |%n",
                        r.pool(), r.limit() == 0 ? "none" : Integer.toString(r.limit()), r.rps(), RunResult.fixed(r.p99Ms(), 0), r.refused(),
                        r.unanswered(), cell(r.poolQueued()), cell(r.admissionQueued()), cell(r.tasksWaiting()), cell(r.carrierQueued()),
                        r.idleThreads(), r.peakThreads(), RunResult.fixed(r.heapGrowthMb(), 0), RunResult.fixed(r.rssGrowthMb(), 0),
                        r.recovered() ? "yes, " + RunResult.fixed(r.recoveryS(), 1) + " s" : "no", r.behaviour(), shares(r.cpu()),
                        !r.cpu().recorded() ? "not recorded" : r.cpu().marked() ? String.join(", ", r.cpu().marks()) : "-"));
            }
            md.append("\n![").append(load.name()).append("](").append(chartName(load)).append(")\n\n");
            chart(dir.resolve(chartName(load)), load, rows);
        }
        Files.writeString(dir.resolve("bound.md"), md.toString(), StandardCharsets.UTF_8);
    }

    /** "62, 20, 97": the server's, wrk's and the machine's busy share, each "-" where not read; "not recorded" for a run from before. */
    private static String shares(CpuSplit cpu) {
        if (!cpu.recorded()) return "not recorded";
        return cell0(cpu.serverPct()) + ", " + cell0(cpu.clientPct()) + ", " + cell0(cpu.busyPct());
    }

    private static String cell0(double v) {
        return Double.isNaN(v) ? "-" : RunResult.fixed(v, 0);
    }

    private static String cell(double v) {
        return v < 0 ? "-" : RunResult.fixed(v, 0);
    }

    static String chartName(Bound.Load load) {
        return "bound-" + load.name() + ".png";
    }

    /**
     * The load's charts, drawing the runs that carry no mark, as every page's charts do; where every run of the load that
     * ran is marked, those, each chart titled {@link Charts#MARKED_ONLY}.
     */
    private static void chart(Path file, Bound.Load load, List<Bound.Row> all) throws IOException {
        List<Bound.Row> mine = all.stream().filter(r -> r.load().equals(load.name())).toList();
        List<Bound.Row> ran = mine.stream().filter(r -> r.failure() == null).toList();
        List<Bound.Row> unmarked = ran.stream().filter(r -> !r.cpu().marked()).toList();
        boolean markedOnly = unmarked.isEmpty() && !ran.isEmpty();
        String suffix = markedOnly ? Charts.MARKED_ONLY : unmarked.size() < ran.size() ? " (marked runs left out)" : "";
        // A load whose every run failed keeps its pools on the axis, each bar at 0, as it always did.
        List<Bound.Row> rows = ran.isEmpty() ? mine : markedOnly ? ran : unmarked;
        BufferedImage grid = new BufferedImage(Charts.WIDTH, Charts.HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = grid.createGraphics();
        try {
            for (int i = 0; i < METRICS.size(); i++) {
                CategoryChart c = cell(load, METRICS.get(i), rows, suffix);
                g.drawImage(BitmapEncoder.getBufferedImage(c), (i % Charts.COLUMNS) * Charts.CELL_WIDTH, (i / Charts.COLUMNS) * Charts.CELL_HEIGHT, null);
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(grid, "png", file.toFile());
    }

    private static CategoryChart cell(Bound.Load load, Metric metric, List<Bound.Row> rows, String suffix) {
        CategoryChart chart = new CategoryChartBuilder().width(Charts.CELL_WIDTH).height(Charts.CELL_HEIGHT)
                .title(load.name() + ": " + metric.title() + suffix).yAxisTitle(metric.unit()).build();
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setSeriesColors(new Color[] {new Color(0x1f77b4), new Color(0xd62728)});
        List<String> pools = new ArrayList<>();
        for (Bound.Row r : rows) if (!pools.contains(r.pool())) pools.add(r.pool());
        for (int limit : List.of(0, load.limit())) {
            List<Double> values = new ArrayList<>();
            for (String pool : pools) {
                double v = rows.stream().filter(r -> r.pool().equals(pool) && r.limit() == limit && r.failure() == null)
                        .mapToDouble(metric.value()).findFirst().orElse(0);
                values.add(Double.isNaN(v) || v < 0 ? 0 : v);
            }
            chart.addSeries(limit == 0 ? "no limit" : "--max-in-flight " + limit, pools, values);
        }
        return chart;
    }
}
