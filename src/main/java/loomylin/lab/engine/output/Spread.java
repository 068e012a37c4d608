package loomylin.lab.engine.output;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import loomylin.lab.engine.run.RunResult;

/** The median of a few repeats with their range; NaN values (no answers) are left out. */
public record Spread(double median, double min, double max, int count) {

    public static Spread of(Collection<Double> values) {
        List<Double> v = new ArrayList<>(values.stream().filter(x -> !Double.isNaN(x)).sorted().toList());
        if (v.isEmpty()) return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        int n = v.size();
        double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        return new Spread(median, v.get(0), v.get(n - 1), n);
    }

    /** "488.4 (485.0-490.2)", or just the value when there is one, or "" when there is none. */
    public String text(int decimals) {
        if (count == 0) return "";
        String m = RunResult.fixed(median, decimals);
        return count == 1 || min == max ? m : m + " (" + RunResult.fixed(min, decimals) + "-" + RunResult.fixed(max, decimals) + ")";
    }
}
