package loomylin.lab.experiment.bound;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.output.Spread;
import loomylin.lab.engine.output.Charts;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.lab.engine.run.RunExecutor;
import loomylin.lab.engine.run.Timed;
import loomylin.lab.engine.run.Warmth;
import loomylin.lab.engine.run.Warmup;

import static loomylin.lab.engine.result.Column.fixed;
import static loomylin.lab.engine.result.Column.flag;
import static loomylin.lab.engine.result.Column.integer;
import static loomylin.lab.engine.result.Column.text;
import static loomylin.lab.engine.result.Column.whole;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * db.csv and db.md of {@link DbBench}: a row per run, then per pool shape, database pool and load the median and
 * range over the runs that decide (no failure, not client-limited, not cold), with the count of those that do not.
 */
final class DbReport {
    static final int DECIDING_RUNS = 3;
    static final int DECIDING_INVOCATIONS = 2;

    private DbReport() {
    }

    private static final Column<DbBench.Row, Integer> INVOCATION = integer("invocation", DbBench.Row::invocation), REPEAT = integer("repeat", DbBench.Row::repeat),
            DB_POOL = integer("db_pool", DbBench.Row::dbPool), BOUND = integer("little_bound_rps", DbBench.Row::bound), OFFERED = integer("offered_rps", DbBench.Row::offered),
            JETTY_QUEUE = integer("peak_jetty_queue", DbBench.Row::peakJettyQueue), DB_PENDING = integer("peak_db_pending", DbBench.Row::peakDbPending),
            IN_FLIGHT = integer("peak_in_flight", DbBench.Row::peakInFlight), PG_ACTIVE = integer("peak_postgres_active", DbBench.Row::peakPgActive),
            OS_THREADS = integer("peak_os_threads", DbBench.Row::peakOsThreads), ADMISSION_QUEUED = integer("peak_admission_queued", DbBench.Row::peakAdmissionQueued);
    private static final Column<DbBench.Row, String> POOL = text("pool", DbBench.Row::pool), LOAD = text("load", DbBench.Row::load),
            FAILURE = Column.<DbBench.Row>quoted("failure", DbBench.Row::failure).orElse(null);
    private static final Column<DbBench.Row, Long> SENT = whole("sent", DbBench.Row::sent), OK = whole("ok", DbBench.Row::ok),
            REFUSED = whole("refused", DbBench.Row::refused), ERRORS = whole("errors", DbBench.Row::errors), DB_TIMEOUTS = whole("db_timeouts", DbBench.Row::dbTimeouts);
    private static final Column<DbBench.Row, Double> GOODPUT = fixed("goodput_rps", 2, DbBench.Row::goodput), P50 = fixed("ok_p50_ms", 1, DbBench.Row::okP50Ms),
            P99 = fixed("ok_p99_ms", 1, DbBench.Row::okP99Ms), SERVER_CPU = fixed("server_cpu_ms_per_ok", 3, DbBench.Row::serverCpuMs),
            PG_CPU = fixed("postgres_cpu_ms_per_ok", 3, DbBench.Row::pgCpuMs), CLIENT_PCT = fixed("client_cpu_pct", 1, DbBench.Row::clientPct),
            RSS = fixed("peak_rss_mb", 1, DbBench.Row::peakRssMb);
    private static final Column<DbBench.Row, Boolean> CLIENT_LIMITED = flag("client_limited", DbBench.Row::clientLimited);

    /**
     * db.csv: a row per run, with when it was made; peak_rss_mb came after the rest, so files from before it read it
     * as NaN, and {@link Warmth}'s columns last, so files from before the warm-up waited for the JIT read as not
     * recorded ({@link Warmth#NONE}), never as cold.
     */
    static final Table<Timed<DbBench.Row>> TABLE = new Table<>(java.util.stream.Stream.of(Column.of(List.of(INVOCATION, REPEAT, POOL, DB_POOL, LOAD, BOUND,
                    OFFERED, SENT, OK, REFUSED, ERRORS, GOODPUT, P50, P99, SERVER_CPU, PG_CPU, CLIENT_PCT, JETTY_QUEUE, DB_PENDING, IN_FLIGHT, PG_ACTIVE,
                    OS_THREADS, ADMISSION_QUEUED, DB_TIMEOUTS, CLIENT_LIMITED), Timed<DbBench.Row>::row), Timed.<DbBench.Row>columns(),
            Column.of(List.of(FAILURE, RSS), Timed<DbBench.Row>::row),
            Column.of(Warmth.COLUMNS, (Timed<DbBench.Row> t) -> new Warmth.Of(t.row().warmth(), t.row().ok())))
            .<Column<Timed<DbBench.Row>, ?>>flatMap(List::stream).toList(), DbReport::read);

    private static Timed<DbBench.Row> read(Table.Fields f) {
        return new Timed<>(new DbBench.Row(f.get(INVOCATION), f.get(REPEAT), f.get(POOL), f.get(DB_POOL), f.get(LOAD), f.get(BOUND), f.get(OFFERED),
                f.get(SENT), f.get(OK), f.get(REFUSED), f.get(ERRORS), f.get(GOODPUT), f.get(P50), f.get(P99), f.get(SERVER_CPU), f.get(PG_CPU),
                f.get(CLIENT_PCT), f.get(JETTY_QUEUE), f.get(DB_PENDING), f.get(IN_FLIGHT), f.get(PG_ACTIVE), f.get(OS_THREADS), f.get(RSS),
                f.get(ADMISSION_QUEUED), f.get(DB_TIMEOUTS), f.get(CLIENT_LIMITED), f.get(FAILURE),
                Warmth.read(f, f.get(OK), f.get(SERVER_CPU) * f.get(OK) / 1000)), Timed.when(f));
    }

    /** The runs of db.csv. */
    static List<DbBench.Row> rows(Path csv) throws IOException {
        return TABLE.read(csv).stream().map(Timed::row).toList();
    }

    /** "decides", or why the cell is a sketch: too few deciding runs, or all from one invocation. */
    static String standing(int runs, int invocations) {
        if (runs == 0) return "no deciding run";
        if (runs < DECIDING_RUNS || invocations < DECIDING_INVOCATIONS)
            return "sketch: " + runs + (runs == 1 ? " run" : " runs") + " from " + invocations + (invocations == 1 ? " invocation" : " invocations");
        return "decides";
    }

    static final String CHART = "db.png";

    static void write(Path dir, Provenance provenance, int invocation, List<DbBench.Row> rows, Duration window, DbBench.Setup setup) throws IOException {
        write(dir, title(setup.client()) + provenance.markdown() + Invocations.provenanceNote(invocation), rows, window, setup);
    }

    /**
     * How a run warmed up, as the method's sentence says it: in slices until the JIT is quiet where the rows recorded
     * it ({@code recorded}), else the one-piece warm-up those runs had.
     */
    static String warmup(boolean recorded) {
        if (!recorded) return String.format(Locale.ROOT, "a %d s wrk warm-up on `ms=0`", DbBench.FIXED_WARMUP.toSeconds());
        return String.format(Locale.ROOT, "a wrk warm-up on `ms=0` with no more clients than connections, in slices of `--warmup` (%d s unless the"
                        + " command says another) until two in a row cost the same server CPU per answer within %.0f %% and the last was quiet (at least"
                        + " %d slices, at most %d)", DbBench.SLICE.toSeconds(), 100 * Warmup.SETTLE_SHARE, Warmup.MIN_SLICES,
                RunExecutor.MAX_WARMUP_SLICES);
    }

    static String title(DbClient client) {
        return "# The connection pool as the bound: " + client.route + " on PostgreSQL\n\n";
    }

    /** The title and provenance of an existing db.md of {@code client}, for {@code --rerender}. */
    static String head(Path md, DbClient client) throws IOException {
        return loomylin.lab.engine.output.Invocations.headBefore(md, client.bodyStart());
    }

    static void write(Path dir, String head, List<DbBench.Row> rows, Duration window, DbBench.Setup setup) throws IOException {
        StringBuilder md = new StringBuilder(head);
        boolean recorded = rows.stream().anyMatch(r -> r.warmth().warm() != null);
        md.append(String.format(Locale.ROOT, "%s%d`: one row by its primary key and %d ms of `pg_sleep` on a PostgreSQL of the bench's own,"
                        + " %s that waits %d ms for a connection (then `503`).%s Little's law bounds a server at"
                        + " connections x 1000 / %d req/s, whatever its threads. Each run: a fresh server JVM, the database reset (no session left), %s,"
                        + " then oha for %d s: open loop at %.1f of the bound over %d connections (latency from each request's due"
                        + " time), or closed loop with %d clients. Goodput: 2xx answers per second. CPU: milliseconds per 2xx answer, the server JVM's and"
                        + " PostgreSQL's (every backend) apart. Peaks: the largest of the window's samples every %d ms: Jetty's queue, requests waiting for"
                        + " a connection in the pool, requests in flight, PostgreSQL's active sessions, the server's OS threads; the server JVM's resident"
                        + " memory at its highest (VmHWM, warm-up included; \"-\" in runs recorded before it was).%s\n\n",
                setup.client().bodyStart(), DbBench.QUERY_MS, DbBench.QUERY_MS, setup.client().how, DbBench.DB_TIMEOUT_MS, setup.admission(), DbBench.QUERY_MS,
                warmup(recorded), window.toSeconds(),
                DbBench.OPEN_SHARE, DbBench.OPEN_CONNECTIONS, DbBench.CLOSED_CLIENTS, DbBench.SAMPLE_EVERY.toMillis(), FixedLoad.jitRule(recorded)));
        boolean limited = setup.maxInFlight() > 0;
        md.append("Median (range) over the runs that decide: ").append(recorded ? "no failure, not cold, not client-limited" : "no failure and not client-limited")
                .append(" (the client, or client and server together, over ")
                .append(DbBench.BUSY_PCT).append(" % of the machine, or an open loop that sent under 95 % of its rate). A cell of fewer than ")
                .append(DECIDING_RUNS).append(" such runs, or from fewer than ").append(DECIDING_INVOCATIONS).append(" invocations, is a sketch.\n\n");
        md.append("| pool | db pool | load | runs (deciding / all) | standing | goodput / bound | 2xx p50 ms | 2xx p99 ms | 503 per s | server CPU ms | "
                + "PostgreSQL CPU ms | peak Jetty queue | peak pool pending | peak PostgreSQL active | peak OS threads | peak RSS MB |"
                + (limited ? " peak admission queue |\n" : "\n"));
        md.append("|---|--:|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|").append(limited ? "--:|\n" : "\n");
        Set<String> pools = new LinkedHashSet<>();
        Set<Integer> dbPools = new LinkedHashSet<>();
        Set<String> loads = new LinkedHashSet<>();
        for (DbBench.Row r : rows) {
            pools.add(r.pool());
            dbPools.add(r.dbPool());
            loads.add(r.load());
        }
        for (int dbPool : dbPools) {
            for (String load : loads) {
                for (String pool : pools) {
                    List<DbBench.Row> all = rows.stream().filter(r -> r.pool().equals(pool) && r.dbPool() == dbPool && r.load().equals(load)).toList();
                    if (all.isEmpty()) continue;
                    List<DbBench.Row> deciding = all.stream().filter(DbBench.Row::decides).toList();
                    int invocations = (int) deciding.stream().mapToInt(DbBench.Row::invocation).distinct().count();
                    md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d / %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%s%n", pool, dbPool, load,
                            deciding.size(), all.size(), standing(deciding.size(), invocations), cell(deciding, r -> r.goodput() / r.bound(), 2),
                            cell(deciding, DbBench.Row::okP50Ms, 0), cell(deciding, DbBench.Row::okP99Ms, 0),
                            cell(deciding, r -> r.refused() / (double) window.toSeconds(), 0), cell(deciding, DbBench.Row::serverCpuMs, 2),
                            cell(deciding, DbBench.Row::pgCpuMs, 2), cell(deciding, DbBench.Row::peakJettyQueue, 0),
                            cell(deciding, DbBench.Row::peakDbPending, 0), cell(deciding, DbBench.Row::peakPgActive, 0),
                            cell(deciding, DbBench.Row::peakOsThreads, 0), known(deciding, DbBench.Row::peakRssMb, 0), limited ? " " + cell(deciding, DbBench.Row::peakAdmissionQueued, 0) + " |" : ""));
                }
            }
        }
        List<DbBench.Row> left = rows.stream().filter(r -> !r.decides()).toList();
        if (!left.isEmpty()) {
            md.append("\nLeft out:\n\n");
            for (DbBench.Row r : left)
                md.append("- invocation ").append(r.invocation()).append(" repeat ").append(r.repeat()).append(' ').append(r.pool()).append(" db pool ")
                        .append(r.dbPool()).append(' ').append(r.load()).append(": ").append(r.failure() != null ? r.failure() : String.join(", ", r.marks())
                                + (r.clientLimited() ? String.format(Locale.ROOT, " (client %.0f %% of the machine)", r.clientPct()) : "")).append('\n');
        }
        if (chart(dir.resolve(CHART), rows, window))
            md.append("\n![The medians of the deciding runs: goodput against Little's bound, 2xx p99, 503s, where the queue sits, OS threads](")
                    .append(CHART).append(")\n");
        md.append("\nEvery run, with its start and end time and the load average: [db.csv](db.csv).\n");
        Files.writeString(dir.resolve("db.md"), md.toString(), StandardCharsets.UTF_8);
    }

    private record Metric(String title, String unit, ToDoubleFunction<DbBench.Row> value) {
    }

    /**
     * {@code db.png}: a 3 x 2 grid of bar charts, a bar per pool shape and database pool, a series per load; medians of
     * the deciding runs. Where none decides (a smoke run, every run cold), those that did not fail are drawn, each
     * title saying so ({@link Charts#MARKED_ONLY}); where every run failed, nothing is drawn. Returns whether it drew.
     */
    private static boolean chart(Path file, List<DbBench.Row> rows, Duration window) throws IOException {
        List<Metric> metrics = List.of(new Metric("2xx answers / Little's bound", "share", r -> r.goodput() / r.bound()),
                new Metric("p99 of the 2xx answers", "ms", DbBench.Row::okP99Ms),
                new Metric("503 answers per second", "req/s", r -> r.refused() / (double) window.toSeconds()),
                new Metric("peak requests in Jetty's queue", "requests", DbBench.Row::peakJettyQueue),
                new Metric("peak requests waiting for a connection", "requests", DbBench.Row::peakDbPending),
                new Metric("peak OS threads of the server", "threads", DbBench.Row::peakOsThreads));
        List<DbBench.Row> decide = rows.stream().filter(DbBench.Row::decides).toList();
        boolean markedOnly = decide.isEmpty();
        List<DbBench.Row> deciding = markedOnly ? rows.stream().filter(r -> r.failure() == null).toList() : decide;
        if (deciding.isEmpty()) return false;
        List<String> cells = new java.util.ArrayList<>();
        for (DbBench.Row r : deciding) if (!cells.contains(cellName(r))) cells.add(cellName(r));
        List<String> loads = deciding.stream().map(DbBench.Row::load).distinct().toList();
        java.awt.image.BufferedImage grid = new java.awt.image.BufferedImage(Charts.WIDTH, Charts.HEIGHT, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = grid.createGraphics();
        try {
            for (int i = 0; i < metrics.size(); i++) {
                Metric metric = metrics.get(i);
                CategoryChart c = new CategoryChartBuilder().width(Charts.CELL_WIDTH).height(Charts.CELL_HEIGHT).title(metric.title() + (markedOnly ? Charts.MARKED_ONLY : ""))
                        .yAxisTitle(metric.unit()).build();
                c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
                c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
                c.getStyler().setSeriesColors(new java.awt.Color[] {new java.awt.Color(0x1f77b4), new java.awt.Color(0xd62728)});
                for (String load : loads) {
                    List<Double> values = new java.util.ArrayList<>();
                    for (String cell : cells) {
                        Spread s = Spread.of(deciding.stream().filter(r -> r.load().equals(load) && cellName(r).equals(cell))
                                .map(r -> metric.value().applyAsDouble(r)).filter(v -> v >= 0).toList());
                        values.add(s.count() == 0 || Double.isNaN(s.median()) ? 0 : s.median());
                    }
                    c.addSeries(load, cells, values);
                }
                g.drawImage(BitmapEncoder.getBufferedImage(c), (i % Charts.COLUMNS) * Charts.CELL_WIDTH, (i / Charts.COLUMNS) * Charts.CELL_HEIGHT, null);
            }
        } finally {
            g.dispose();
        }
        javax.imageio.ImageIO.write(grid, "png", file.toFile());
        return true;
    }

    private static String cellName(DbBench.Row r) {
        return r.pool() + ", " + r.dbPool() + " conn.";
    }

    /** {@link #cell} over the runs that recorded the figure; "-" when none did. */
    private static String known(List<DbBench.Row> rows, ToDoubleFunction<DbBench.Row> f, int decimals) {
        return cell(rows.stream().filter(r -> !Double.isNaN(f.applyAsDouble(r))).toList(), f, decimals);
    }

    private static String cell(List<DbBench.Row> rows, ToDoubleFunction<DbBench.Row> f, int decimals) {
        Spread s = Spread.of(rows.stream().map(r -> f.applyAsDouble(r)).filter(v -> v >= 0 || Double.isNaN(v)).toList());
        return s.count() == 0 ? "-" : s.text(decimals);
    }
}
