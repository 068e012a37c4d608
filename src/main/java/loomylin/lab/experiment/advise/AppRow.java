package loomylin.lab.experiment.advise;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.lab.engine.run.RunResult;
import loomylin.server.jetty.PoolKind;

/**
 * One run of {@code advise --app}: the user's application on one pool shape, what it was asked and what it measured.
 * {@code probeMeanMs} is the first measurement's mean latency that sized the Little's-law pool, and {@code connections}
 * oha's connections from it; {@code peakThreads} and {@code peakRssMb} the application JVM's peaks over the run (from
 * /proc); {@code pinned}, {@code pinnedS} and {@code pinnedWhere} the agent's pinned virtual threads, counted from
 * the server's start to the end of the window (NaN where the application's JDK has no Flight Recorder), and the
 * places they pinned at most; {@code failure} non-empty when the run measured nothing.
 */
public record AppRow(int invocation, String shape, PoolKind pool, int round, Instant start, Instant end, double load1, String url, String app,
                     double probeMeanMs, int connections, int peakThreads, double peakRssMb, double pinned, double pinnedS, String pinnedWhere,
                     FixedLoad.Window w, String failure) {
    private static final Column<AppRow, Integer> INVOCATION = Column.integer(Invocations.COLUMN, AppRow::invocation);
    private static final Column<AppRow, String> SHAPE = Column.text("shape", AppRow::shape);
    private static final Column<AppRow, PoolKind> POOL = Column.pool("pool", AppRow::pool);
    private static final Column<AppRow, Integer> ROUND = Column.integer("round", AppRow::round);
    private static final Column<AppRow, Instant> START = Column.instant("start", AppRow::start);
    private static final Column<AppRow, Instant> END = Column.instant("end", AppRow::end);
    private static final Column<AppRow, Double> LOAD1 = Column.fixed("load1", 2, AppRow::load1);
    private static final Column<AppRow, String> URL = Column.quoted("url", AppRow::url), APP = Column.quoted("app", AppRow::app);
    private static final Column<AppRow, Double> PROBE_MEAN = Column.fixed("probe_mean_ms", 3, AppRow::probeMeanMs);
    private static final Column<AppRow, Integer> CONNECTIONS = Column.integer("connections", AppRow::connections);
    private static final Column<AppRow, Integer> PEAK_THREADS = Column.integer("peak_threads", AppRow::peakThreads);
    private static final Column<AppRow, Double> PEAK_RSS = Column.fixed("peak_rss_mb", 1, AppRow::peakRssMb), PINNED = Column.fixed("pinned", 0, AppRow::pinned),
            PINNED_S = Column.fixed("pinned_s", 3, AppRow::pinnedS);
    private static final Column<AppRow, String> PINNED_WHERE = Column.quoted("pinned_where", AppRow::pinnedWhere), FAILURE = Column.quoted("failure", AppRow::failure);

    /** advise-app.csv: the run's own columns, then the window's ({@link FixedLoad.Window#COLUMNS}), then the failure; each declared once, above. */
    public static final Table<AppRow> TABLE = new Table<>(java.util.stream.Stream.of(List.of(INVOCATION, SHAPE, POOL, ROUND, START, END, LOAD1, URL, APP,
                    PROBE_MEAN, CONNECTIONS, PEAK_THREADS, PEAK_RSS, PINNED, PINNED_S, PINNED_WHERE), Column.of(FixedLoad.Window.COLUMNS, AppRow::w), List.of(FAILURE))
            .<Column<AppRow, ?>>flatMap(List::stream).toList(), AppRow::read);

    private static AppRow read(Table.Fields f) {
        return new AppRow(f.get(INVOCATION), f.get(SHAPE), f.get(POOL), f.get(ROUND), f.get(START), f.get(END), f.get(LOAD1), f.get(URL), f.get(APP),
                f.get(PROBE_MEAN), f.get(CONNECTIONS), f.get(PEAK_THREADS), f.get(PEAK_RSS), f.get(PINNED), f.get(PINNED_S), f.get(PINNED_WHERE),
                FixedLoad.Window.read(f), f.get(FAILURE));
    }

    public boolean failed() {
        return !failure.isEmpty();
    }

    /**
     * What keeps the run out of the verdict, in the engine's words: the window's marks (cold, unsettled,
     * client-limited, missed the rate, with errors), and too short under {@link RunResult#MIN_ANSWERS} answers.
     */
    public List<String> marks() {
        if (failed()) return List.of("failed");
        List<String> marks = new ArrayList<>(w.marks());
        if (w.answers() > 0 && RunResult.tooShort(w.answers(), connections, true)) marks.add("too short");
        return marks;
    }

    public boolean decides() {
        return marks().isEmpty();
    }
}
