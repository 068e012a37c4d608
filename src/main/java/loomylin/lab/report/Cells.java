package loomylin.lab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/** Picking runs out of a results.csv and summarising them the way the bench's reports do: from the runs the bench did not mark. */
final class Cells {
    private Cells() {
    }

    private static final java.util.Comparator<Run> IN_ORDER = java.util.Comparator.comparingInt(Run::invocation).thenComparingInt(Run::repeat);

    /** The closed-loop runs of one pool, endpoint and concurrency, by invocation and repeat. */
    static List<Run> closed(List<Run> runs, String pool, String endpoint, int concurrency) {
        return runs.stream().filter(r -> !r.open() && r.pool().equals(pool) && r.endpoint().equals(endpoint)
                && r.concurrency() == concurrency).sorted(IN_ORDER).toList();
    }

    /** The open-loop runs of one pool and endpoint offered one rate, by invocation and repeat. */
    static List<Run> open(List<Run> runs, String pool, String endpoint, double offered) {
        return runs.stream().filter(r -> r.open() && r.pool().equals(pool) && r.endpoint().equals(endpoint)
                && r.offered() == offered).sorted(IN_ORDER).toList();
    }

    /** A summary of the runs the bench did not mark (too short, unsettled, client-limited); empty when every run is marked. */
    static Optional<Stats> stats(List<Run> runs, ToDoubleFunction<Run> value) {
        List<Double> values = new ArrayList<>();
        for (Run r : runs) {
            if (r.marked()) continue;
            double v = value.applyAsDouble(r);
            if (!Double.isNaN(v)) values.add(v);
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(Stats.of(values));
    }

    static Optional<Stats> column(List<Run> runs, String column) {
        return stats(runs, r -> r.number(column));
    }

    /**
     * A ratio taken per repeat, repeat i of invocation n of {@code a} over the same of {@code b} (the run beside
     * it), as the bench's targets take it, over the pairs in which neither run is marked; empty when there is none.
     */
    static Optional<Stats> ratio(List<Run> a, List<Run> b, ToDoubleFunction<Run> value) {
        Map<String, Run> bySlot = new TreeMap<>();
        for (Run r : b) bySlot.put(r.slot(), r);
        List<Double> ratios = new ArrayList<>();
        for (Run r : a) {
            Run other = bySlot.get(r.slot());
            if (other == null || r.marked() || other.marked()) continue;
            double x = value.applyAsDouble(r);
            double y = value.applyAsDouble(other);
            if (!Double.isNaN(x) && !Double.isNaN(y) && y != 0) ratios.add(x / y);
        }
        return ratios.isEmpty() ? Optional.empty() : Optional.of(Stats.of(ratios));
    }

    static Optional<Stats> ratio(List<Run> a, List<Run> b, String column) {
        return ratio(a, b, r -> r.number(column));
    }
}
