package loomylin.lab.report;

import java.util.List;
import java.util.Map;

/** One row of a bench results.csv: one run of one configuration, read by column name. */
record Run(Map<String, String> row) {
    String pool() {
        return row.getOrDefault("pool", "");
    }

    String endpoint() {
        return row.getOrDefault("endpoint", "");
    }

    int concurrency() {
        return (int) number("concurrency");
    }

    boolean open() {
        return "open".equals(row.get("mode"));
    }

    /** The offered rate of an open-loop run, 0 for a closed one. */
    double offered() {
        String v = row.getOrDefault("offered_rps", "");
        return v.isBlank() ? 0 : Double.parseDouble(v);
    }

    String client() {
        return row.getOrDefault("client", "");
    }

    int repeat() {
        String v = row.getOrDefault("repeat", "");
        return v.isBlank() ? 1 : Integer.parseInt(v);
    }

    /** Which invocation of the plan made the run; 1 in files written before there were several. */
    int invocation() {
        String v = row.getOrDefault("invocation", "");
        return v.isBlank() ? 1 : Integer.parseInt(v);
    }

    /** The run's place in its bench: invocation, then repeat (the run beside it in another pool has the same). */
    String slot() {
        return invocation() + "/" + repeat();
    }

    /** The bench marked the run too short to decide anything (too_short). */
    boolean tooShort() {
        return "true".equals(row.get("too_short"));
    }

    /** The bench marked the run unsettled: its window's rate was not within a tenth of its warm-up's (settled false). */
    boolean unsettled() {
        return "false".equals(row.get("settled"));
    }

    /** The bench marked the run cold: its warm-up ran out of slices with the server's JIT still busy (warm false; empty or absent: not recorded). */
    boolean cold() {
        return "false".equals(row.get("warm"));
    }

    /** The bench marked the run client-limited: the load generator, not the server, may have set its rate. */
    boolean clientLimited() {
        return "true".equals(row.get("client_limited"));
    }

    /** Any of the bench's marks: the run backs no median, ratio or sentence. */
    boolean marked() {
        return tooShort() || cold() || unsettled() || clientLimited();
    }

    /** The bench's marks on {@code runs}, counted: "1 unsettled, 2 client-limited of 4 runs"; "" when none is marked. */
    static String marks(List<Run> runs) {
        List<String> marks = new java.util.ArrayList<>();
        long tooShort = runs.stream().filter(Run::tooShort).count();
        long cold = runs.stream().filter(Run::cold).count();
        long unsettled = runs.stream().filter(Run::unsettled).count();
        long limited = runs.stream().filter(Run::clientLimited).count();
        if (tooShort > 0) marks.add(tooShort + " too short");
        if (cold > 0) marks.add(cold + " cold");
        if (unsettled > 0) marks.add(unsettled + " unsettled");
        if (limited > 0) marks.add(limited + " client-limited");
        return marks.isEmpty() ? "" : String.join(", ", marks) + " of " + runs.size() + " runs";
    }

    /** A table's note on the runs it shows: how many the bench marked, or that it marked none. */
    static String marksNote(List<Run> runs) {
        String marks = marks(runs);
        return marks.isEmpty() ? "No run here is marked too short, cold, unsettled or client-limited."
                : "Marked by the bench, and left out of every figure above: " + marks + ".";
    }

    boolean has(String column) {
        String v = row.get(column);
        return v != null && !v.isBlank();
    }

    double number(String column) {
        String v = row.get(column);
        if (v == null || v.isBlank()) return Double.NaN;
        return Double.parseDouble(v);
    }

    /** The same configuration: pool, endpoint, concurrency, mode and offered rate. */
    boolean sameCell(Run other) {
        return pool().equals(other.pool()) && endpoint().equals(other.endpoint()) && concurrency() == other.concurrency()
                && open() == other.open() && offered() == other.offered();
    }
}
