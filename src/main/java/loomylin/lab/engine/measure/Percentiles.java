package loomylin.lab.engine.measure;

/** Exact percentiles of a sorted sample, nearest-rank: the smallest value with at least p% of the sample at or below it. */
public final class Percentiles {
    private Percentiles() {
    }

    public static double of(double[] sorted, double p) {
        if (sorted.length == 0) return Double.NaN;
        if (p <= 0) return sorted[0];
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
    }
}
