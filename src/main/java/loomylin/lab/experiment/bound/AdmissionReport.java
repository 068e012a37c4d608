package loomylin.lab.experiment.bound;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.output.Spread;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.CpuSplit;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Timed;

import static loomylin.lab.engine.result.Column.fixed;
import static loomylin.lab.engine.result.Column.flag;
import static loomylin.lab.engine.result.Column.integer;
import static loomylin.lab.engine.result.Column.text;
import static loomylin.lab.engine.result.Column.whole;

/**
 * admission.csv and admission.md of {@link AdmissionBench}: a row per run with its CPU split and marks ({@link CpuSplit}), then per
 * pool and load the median and range over the runs that started idle and carry no mark, and the open-loop goal's verdict.
 */
final class AdmissionReport {
    /** Fewer runs than this in a cell, or from fewer invocations, make it a sketch, not a verdict. */
    static final int DECIDING_RUNS = 3;
    static final int DECIDING_INVOCATIONS = 2;
    /** The first line after the description: where {@code --rerender} starts writing. */
    static final String BODY_START = "Median (range) over the runs";

    private AdmissionReport() {
    }

    private static final Column<AdmissionBench.Row, Integer> INVOCATION = integer("invocation", AdmissionBench.Row::invocation),
            REPEAT = integer("repeat", AdmissionBench.Row::repeat), LIMIT = integer("max_in_flight", AdmissionBench.Row::limit),
            OFFERED = integer("offered_rps", AdmissionBench.Row::offered);
    private static final Column<AdmissionBench.Row, String> POOL = text("pool", AdmissionBench.Row::pool), LOAD = text("load", AdmissionBench.Row::variant),
            FAILURE = Column.<AdmissionBench.Row>quoted("failure", AdmissionBench.Row::failure).orElse(null);
    private static final Column<AdmissionBench.Row, Long> SENT = whole("sent", AdmissionBench.Row::sent), OK = whole("ok", AdmissionBench.Row::ok),
            REFUSED = whole("refused", AdmissionBench.Row::refused), ERRORS = whole("errors", AdmissionBench.Row::errors);
    private static final Column<AdmissionBench.Row, Double> GOODPUT = fixed("goodput_rps", 2, AdmissionBench.Row::goodput),
            P50 = fixed("ok_p50_ms", 1, AdmissionBench.Row::okP50Ms), P99 = fixed("ok_p99_ms", 1, AdmissionBench.Row::okP99Ms),
            ALL_P99 = fixed("all_p99_ms", 1, AdmissionBench.Row::allP99Ms), RECOVERY_S = fixed("recovery_s", 2, AdmissionBench.Row::recoveryS);
    private static final Column<AdmissionBench.Row, Boolean> IDLE_BEFORE = flag("idle_before", AdmissionBench.Row::idleBefore);
    /** Which limit: written by every run since limits were compared; a file from before read as the fixed one it ran. */
    private static final Column<AdmissionBench.Row, String> LIMIT_KIND = text("limit", AdmissionBench.Row::limitKind).orElse(AdmissionBench.FIXED);
    /** admission.csv: a row per run, with when it was made; recovered is recovery_s known, left empty for a failed run. */
    static final Table<Timed<AdmissionBench.Row>> TABLE = new Table<>(java.util.stream.Stream.of(Column.of(List.of(INVOCATION, REPEAT, POOL, LOAD, LIMIT,
                    LIMIT_KIND, OFFERED, SENT, OK, REFUSED, ERRORS, GOODPUT, P50, P99, ALL_P99, IDLE_BEFORE, Column.<AdmissionBench.Row>maybe("recovered",
                            r -> r.failure() == null ? r.recovered() : null).computed(), RECOVERY_S),
                    Timed<AdmissionBench.Row>::row), Column.<Timed<AdmissionBench.Row>, CpuSplit>of(CpuSplit.COLUMNS, t -> t.row().split()),
            Timed.<AdmissionBench.Row>columns(), Column.of(List.of(FAILURE), Timed<AdmissionBench.Row>::row))
            .<Column<Timed<AdmissionBench.Row>, ?>>flatMap(List::stream).toList(), AdmissionReport::read);

    private static Timed<AdmissionBench.Row> read(Table.Fields f) {
        return new Timed<>(new AdmissionBench.Row(f.get(INVOCATION), f.get(REPEAT), f.get(POOL), f.get(LOAD), f.get(LIMIT), f.get(LIMIT_KIND), f.get(OFFERED),
                f.get(SENT), f.get(OK), f.get(REFUSED), f.get(ERRORS), f.get(GOODPUT), f.get(P50), f.get(P99), f.get(ALL_P99), f.get(IDLE_BEFORE), f.get(RECOVERY_S),
                CpuSplit.read(f), f.get(FAILURE)), Timed.when(f));
    }

    /** The runs of admission.csv. */
    static List<AdmissionBench.Row> rows(Path csv) throws IOException {
        return TABLE.read(csv).stream().map(Timed::row).toList();
    }

    /** The open-loop goal: goodput at least {@link AdmissionBench#GOAL} of the capacity, 2xx p99 under the wait plus the request. */
    static String verdict(double goodputShare, double okP99Ms, int runs, int invocations) {
        if (Double.isNaN(goodputShare)) return "no run started idle";
        boolean met = goodputShare >= AdmissionBench.GOAL && okP99Ms < AdmissionBench.MAX_WAIT_MS + AdmissionBench.REQUEST_MS;
        boolean sketch = runs < DECIDING_RUNS || invocations < DECIDING_INVOCATIONS;
        return (met ? "meets" : "misses") + (sketch ? " (sketch: " + runs + (runs == 1 ? " run" : " runs") + " from " + invocations
                + (invocations == 1 ? " invocation)" : " invocations)") : "");
    }

    static void write(Path dir, Provenance provenance, int invocation, Bound.Load cpu, int capacity, List<AdmissionBench.Row> rows, Duration window)
            throws IOException {
        StringBuilder md = new StringBuilder("# Admission under CPU overload: what --max-in-flight delivers\n\n").append(provenance.markdown());
        md.append(loomylin.lab.engine.output.Invocations.provenanceNote(invocation));
        md.append(String.format(Locale.ROOT, "`%s`, every server behind `--max-in-flight %d --max-in-flight-wait-ms %d` (Little's law on %d cores:"
                        + " sized for %d req/s). Each run: a fresh server JVM, a %d s wrk warm-up on `%s` with at most %d clients, a check that nothing is"
                        + " admitted or queued, then oha for %d s: open loop at %s the sized rate over %d connections (latency from each request's due time),"
                        + " or closed loop with %d clients, which re-send every 503 at once (closed) or wait as its Retry-After asks (retry-after; Loomylin's"
                        + " own client on the JDK's, in the bench's JVM). Goodput: 2xx answers per second of the window. Goal (open loop):"
                        + " goodput at least %.1f of %d req/s and the 2xx answers' p99 under %d ms (the limit's wait plus the request).\n\n",
                cpu.pathAndQuery(), cpu.limit(), AdmissionBench.MAX_WAIT_MS, Runtime.getRuntime().availableProcessors(), capacity,
                AdmissionBench.WARMUP.toSeconds(), Bound.PROBE, Math.min(cpu.limit(), 50), window.toSeconds(),
                String.join(" and ", AdmissionBench.OPEN_RATES.stream().map(r -> RunResult.fixed(r, 1) + "x").toList()), AdmissionBench.OPEN_CONNECTIONS,
                AdmissionBench.CLOSED_CLIENTS, AdmissionBench.GOAL, capacity, AdmissionBench.MAX_WAIT_MS + AdmissionBench.REQUEST_MS));
        if (rows.stream().anyMatch(r -> !r.limitKind().equals(AdmissionBench.FIXED)))
            md.append("Limits compared (`limit`): `fixed` is that sized limit; `auto`, `auto:ALGORITHM` the adaptive limit (`--max-in-flight auto...`, the same"
                    + " wait), which sizes itself with no figure from the user; `none` no limit at all. The goal's capacity is the sized one for every limit.\n\n");
        writeBody(dir, md.toString(), rows, window);
    }

    /** The title, provenance and description of an existing admission.md: everything before its table, for {@code --rerender}. */
    static String head(Path md) throws IOException {
        return loomylin.lab.engine.output.Invocations.headBefore(md, BODY_START);
    }

    /** admission.md: {@code head}, then per pool and load the figures of {@code rows}, each run's goodput over the capacity its own limit was sized for. */
    static void writeBody(Path dir, String head, List<AdmissionBench.Row> rows, Duration window) throws IOException {
        // Runs that compared limits or recorded the CPU split show those columns; the pages of runs from before render as they did, but for the
        // sentence that says their split was not recorded.
        boolean limits = rows.stream().anyMatch(r -> !r.limitKind().equals(AdmissionBench.FIXED));
        boolean split = rows.stream().anyMatch(r -> r.split().recorded());
        long unjudged = rows.stream().filter(r -> r.failure() == null && !r.split().recorded()).count();
        StringBuilder md = new StringBuilder(head);
        md.append(BODY_START).append(" that started idle").append(split ? " and carry no mark of their CPU split (client-limited: client and server"
                        + " together, or the client alone, kept the machine busy; machine full: client, server and the rest of the machine did; either way"
                        + " the run was not the server's alone)" : "").append(", each run's goodput over the capacity its own `max_in_flight` was sized for"
                        + " (each invocation calibrates its request and limit anew); a cell of fewer than ").append(DECIDING_RUNS)
                .append(" runs, or from fewer than ").append(DECIDING_INVOCATIONS).append(" invocations, is a sketch.");
        if (split) md.append(" CPU: the server JVM's and the load generator's (oha; the Retry-After loop's is the bench's own JVM, where it runs) share"
                + " of all cores over the load, and how busy the machine was (`server_cpu_pct`, `client_cpu_pct`, `machine_busy_pct`), medians.");
        if (unjudged > 0) md.append(" The CPU split was not recorded for ").append(unjudged).append(unjudged == 1 ? " run" : " runs")
                .append(" (made before the preset recorded it): not recorded, so ").append(unjudged == 1 ? "it" : "they")
                .append(" cannot be judged client-limited or machine full, and count with the runs that started idle.");
        md.append("\n\n");
        md.append("| pool | load |").append(limits ? " limit |" : "").append(split ? " runs (deciding / all) |" : " runs (idle / all) |")
                .append(" invocations | goodput / capacity | 2xx p99 ms | 503s per s | errors | recovered |")
                .append(split ? " server CPU ms per 2xx | CPU % server / client / machine |" : "").append(" goal |\n");
        md.append("|---|---|").append(limits ? "---|" : "").append("--:|--:|--:|--:|--:|--:|--:|").append(split ? "--:|--:|" : "").append("---|\n");
        Set<String> pools = new LinkedHashSet<>();
        Set<String> loads = new LinkedHashSet<>();
        Set<String> kinds = new LinkedHashSet<>();
        for (AdmissionBench.Row r : rows) {
            pools.add(r.pool());
            loads.add(r.variant());
            kinds.add(r.limitKind());
        }
        for (String pool : pools) {
            for (String load : loads) {
                for (String kind : kinds) {
                    List<AdmissionBench.Row> all = rows.stream().filter(r -> r.pool().equals(pool) && r.variant().equals(load) && r.limitKind().equals(kind)).toList();
                    if (all.isEmpty()) continue;
                    List<AdmissionBench.Row> idle = all.stream().filter(AdmissionReport::decides).toList();
                    double share = spread(idle, AdmissionReport::share).median();
                    double p99 = spread(idle, AdmissionBench.Row::okP99Ms).median();
                    long recovered = idle.stream().filter(AdmissionBench.Row::recovered).count();
                    int invocations = (int) idle.stream().mapToInt(AdmissionBench.Row::invocation).distinct().count();
                    md.append(String.format(Locale.ROOT, "| %s | %s |%s %d / %d | %d | %s | %s | %s | %s | %d of %d |%s %s |%n", pool, load, limits ? " " + kind + " |" : "",
                            idle.size(), all.size(), invocations, withRange(idle, AdmissionReport::share, 2), withRange(idle, AdmissionBench.Row::okP99Ms, 0),
                            withRange(idle, r -> r.refused() / (double) window.toSeconds(), 0), withRange(idle, r -> r.errors(), 0), recovered, idle.size(),
                            split ? " " + withRange(idle, r -> r.ok() == 0 ? Double.NaN : r.split().serverCpuS() * 1000 / r.ok(), 2) + " | " + shares(idle) + " |" : "",
                            !load.startsWith("open") ? "reported beside it" : split && idle.isEmpty() ? "not decided: every run marked" : verdict(share, p99, idle.size(), invocations)));
                }
            }
        }
        List<AdmissionBench.Row> failed = rows.stream().filter(r -> !decides(r)).toList();
        if (!failed.isEmpty()) {
            md.append("\nLeft out:\n\n");
            for (AdmissionBench.Row r : failed)
                md.append("- invocation ").append(r.invocation()).append(" repeat ").append(r.repeat()).append(' ').append(r.pool()).append(' ').append(r.variant())
                        .append(limits ? " " + r.limitKind() : "").append(": ").append(r.failure() != null ? r.failure() : !r.idleBefore() ? "not idle before the load"
                                : r.split().why()).append('\n');
        }
        md.append("\nEvery run, with its start and end time and the load average: [admission.csv](admission.csv).\n");
        Files.writeString(dir.resolve("admission.md"), md.toString(), StandardCharsets.UTF_8);
    }

    /** "62 / 20 / 97": the medians of the server's, the client's and the machine's busy share over {@code rows}, "-" for one not recorded. */
    private static String shares(List<AdmissionBench.Row> rows) {
        return String.join(" / ", List.<ToDoubleFunction<AdmissionBench.Row>>of(r -> r.split().serverPct(), r -> r.split().clientPct(),
                r -> r.split().busyPct()).stream().map(f -> {
                    double median = spread(rows, f).median();
                    return Double.isNaN(median) ? "-" : RunResult.fixed(median, 0);
                }).toList());
    }

    /** A run that may decide: it ran, started idle, and carries no mark of its CPU split (one not recorded cannot be judged, and is not marked). */
    static boolean decides(AdmissionBench.Row r) {
        return r.failure() == null && r.idleBefore() && !r.split().marked();
    }

    /** A run's goodput over the capacity its limit was sized for (limit / the request's time): invocations calibrate, so limits can differ. */
    static double share(AdmissionBench.Row r) {
        return r.goodput() / (r.limit() * 1000.0 / AdmissionBench.REQUEST_MS);
    }

    /** Median, range and count of one figure over these runs ({@link Spread}: NaN left out). */
    static Spread spread(List<AdmissionBench.Row> rows, ToDoubleFunction<AdmissionBench.Row> f) {
        return Spread.of(rows.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    private static String withRange(List<AdmissionBench.Row> rows, ToDoubleFunction<AdmissionBench.Row> f, int decimals) {
        Spread s = spread(rows, f);
        return s.count() == 0 ? "-" : s.text(decimals);
    }
}
