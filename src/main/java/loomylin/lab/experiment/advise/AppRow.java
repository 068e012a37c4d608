package loomylin.lab.experiment.advise;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.output.Invocations;
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
    /** The CSV's columns, in one list: the run's own, then the window's ({@link FixedLoad#columns}), then the failure. */
    public static final List<String> COLUMNS = FixedLoad.columns(List.of(Invocations.COLUMN, "shape", "pool", "round", "start", "end", "load1", "url", "app",
            "probe_mean_ms", "connections", "peak_threads", "peak_rss_mb", "pinned", "pinned_s", "pinned_where"));

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

    public String csvLine() {
        return FixedLoad.csvLine(List.of(Integer.toString(invocation), shape, pool.toString(), Integer.toString(round), start.toString(), end.toString(),
                FixedLoad.fixed(load1, 2), FixedLoad.quote(url), FixedLoad.quote(app), FixedLoad.fixed(probeMeanMs, 3), Integer.toString(connections),
                Integer.toString(peakThreads), FixedLoad.fixed(peakRssMb, 1), FixedLoad.fixed(pinned, 0), FixedLoad.fixed(pinnedS, 3),
                FixedLoad.quote(pinnedWhere)), w, failure);
    }

    public static AppRow fromCsv(Map<String, String> f) {
        return new AppRow(Integer.parseInt(f.get(Invocations.COLUMN)), f.get("shape"), PoolKind.parse(f.get("pool")), Integer.parseInt(f.get("round")),
                Instant.parse(f.get("start")), Instant.parse(f.get("end")), FixedLoad.number(f.get("load1")), orEmpty(f.get("url")), orEmpty(f.get("app")),
                FixedLoad.number(f.get("probe_mean_ms")), Integer.parseInt(f.get("connections")), Integer.parseInt(f.get("peak_threads")),
                FixedLoad.number(f.get("peak_rss_mb")), FixedLoad.number(f.get("pinned")), FixedLoad.number(f.get("pinned_s")), orEmpty(f.get("pinned_where")),
                FixedLoad.Window.fromCsv(f), orEmpty(f.get("failure")));
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
