package loomylin.lab.report;

import java.util.ArrayList;
import java.util.List;

/** A median with the range it came from: how every figure the docs quote is summarised. */
record Stats(double median, double min, double max, int n) {
    static Stats of(List<Double> values) {
        if (values.isEmpty()) throw new IllegalArgumentException("no values");
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Stats(median, sorted.get(0), sorted.get(n - 1), n);
    }

    boolean single() {
        return n == 1 || min == max;
    }
}
