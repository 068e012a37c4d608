package loomylin.lab.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code pools DIR ENDPOINT}: one endpoint's runs in DIR/results.csv with the pools side by side: a row per
 * concurrency (closed loop) or offered rate (open loop), a column per pool in the order the bench ran them;
 * each cell the median req/s with its range over the repeats, the median p99 and CPU per request, all from the runs
 * the bench did not mark (too short, unsettled, client-limited), and how many it marked; "not decided" when it marked every one.
 */
final class PoolsTable implements Renderer {
    @Override
    public String usage() {
        return "DIR ENDPOINT (e.g. gfx/results wait-blocking?ms=100)";
    }

    @Override
    public String render(Page page, List<String> args) {
        if (args.size() != 2) throw new IllegalArgumentException("expected a directory and an endpoint, got " + args);
        String file = args.get(0) + "/results.csv";
        String endpoint = args.get(1);
        List<Run> runs = page.files().runs(file).stream().filter(r -> r.endpoint().equals(endpoint)).toList();
        if (runs.isEmpty()) throw new IllegalArgumentException("no runs of " + endpoint + " in " + file);
        Set<String> pools = new TreeSet<>(PoolsTable::comparePools);
        Set<String> rows = new LinkedHashSet<>();
        for (Run r : runs) {
            pools.add(r.pool());
            rows.add(rowKey(r));
        }
        List<String> sortedRows = new ArrayList<>(rows);
        sortedRows.sort((a, b) -> compareRows(runs, a, b));
        StringBuilder out = new StringBuilder("| |");
        for (String pool : pools) out.append(" `").append(pool).append("` |");
        out.append("\n|--:|");
        out.append("--:|".repeat(pools.size()));
        int repeats = 0;
        for (String row : sortedRows) {
            List<Run> inRow = runs.stream().filter(r -> rowKey(r).equals(row)).toList();
            out.append("\n| ").append(label(inRow.get(0))).append(" |");
            for (String pool : pools) {
                List<Run> cell = inRow.stream().filter(r -> r.pool().equals(pool)).toList();
                repeats = Math.max(repeats, cell.size());
                out.append(' ').append(cell(cell)).append(" |");
            }
        }
        out.append(repeats == 1 ? "\n\nOne run per cell" : "\n\nreq/s: median (min-max) of up to " + repeats + " repeats per cell; p99, server CPU per request and peak OS threads: medians; every figure from the runs the bench did not mark")
                .append(". From ").append(page.fileLink(file)).append('.');
        return out.toString();
    }

    /** Platform-thread pools first, smallest first, then the virtual-thread kinds in a fixed order. */
    static int comparePools(String a, String b) {
        int c = Integer.compare(rank(a), rank(b));
        if (c != 0) return c;
        c = Long.compare(size(a), size(b));
        return c != 0 ? c : a.compareTo(b);
    }

    static int rank(String pool) {
        if (pool.startsWith("qtp:")) return 0;
        if (pool.equals("loom")) return 1;
        if (pool.startsWith("jetty-vtp")) return 2;
        if (pool.startsWith("qtp-vt")) return 3;
        return 4;
    }

    /** The number after a pool's last colon; a growing {@code qtp:MIN-MAX}'s MAX, so that it sorts beside {@code qtp:MAX}. */
    static long size(String pool) {
        int colon = pool.lastIndexOf(':');
        if (colon < 0) return 0;
        String last = pool.substring(colon + 1);
        try {
            return Long.parseLong(last.substring(last.indexOf('-') + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static String rowKey(Run r) {
        return r.open() ? "open " + r.offered() + " " + r.concurrency() : "closed " + r.concurrency() + " " + r.client();
    }

    static int compareRows(List<Run> runs, String a, String b) {
        Run x = runs.stream().filter(r -> rowKey(r).equals(a)).findFirst().orElseThrow();
        Run y = runs.stream().filter(r -> rowKey(r).equals(b)).findFirst().orElseThrow();
        if (x.open() != y.open()) return x.open() ? 1 : -1;
        if (x.concurrency() != y.concurrency()) return Integer.compare(x.concurrency(), y.concurrency());
        return Double.compare(x.offered(), y.offered());
    }

    static String label(Run r) {
        return r.open() ? Fmt.rate(r.offered()) + "/s offered, c=" + Fmt.count(r.concurrency()) + " (" + r.client() + ")"
                : "c=" + Fmt.count(r.concurrency()) + " (" + r.client() + ")";
    }

    static String cell(List<Run> cell) {
        if (cell.isEmpty()) return "";
        if (cell.stream().allMatch(Run::marked)) return "not decided (" + Run.marks(cell) + " marked)";
        StringBuilder s = new StringBuilder();
        Cells.column(cell, "rps").ifPresent(x -> s.append(Fmt.rateRange(x)).append(" req/s"));
        Cells.column(cell, "p99_ms").ifPresent(x -> s.append(", p99 ").append(Fmt.ms(x.median())).append(" ms"));
        Cells.column(cell, "cpu_ms_per_req").ifPresent(x -> s.append(", ").append(Fmt.cpu(x.median())).append(" ms CPU"));
        Cells.column(cell, "peak_threads").ifPresent(x -> s.append(", ").append(Fmt.count(x.median())).append(" threads"));
        long withErrors = cell.stream().filter(r -> r.number("errors") > 0).count();
        if (withErrors > 0) s.append(", errors in ").append(withErrors).append(" of ").append(cell.size()).append(" runs");
        String marks = Run.marks(cell);
        if (!marks.isEmpty()) s.append(", left out as marked: ").append(marks);
        return s.toString();
    }
}
