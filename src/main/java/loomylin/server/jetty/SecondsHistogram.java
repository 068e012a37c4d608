package loomylin.server.jetty;

import java.util.concurrent.atomic.LongAdder;

/**
 * Durations counted into the fixed buckets of {@link RequestCounts#BUCKETS_SECONDS} (the last bucket unbounded),
 * with their sum: what a Prometheus histogram and the live view's percentiles are made from. Only grows.
 */
public final class SecondsHistogram {
    private final LongAdder[] buckets = new LongAdder[RequestCounts.BUCKETS_SECONDS.length + 1];
    private final LongAdder nanosTotal = new LongAdder();

    public SecondsHistogram() {
        for (int i = 0; i < buckets.length; i++) buckets[i] = new LongAdder();
    }

    public void add(long nanos) {
        nanosTotal.add(nanos);
        double seconds = nanos / 1e9;
        int i = 0;
        while (i < RequestCounts.BUCKETS_SECONDS.length && seconds > RequestCounts.BUCKETS_SECONDS[i]) i++;
        buckets[i].increment();
    }

    /** Durations per bucket (not cumulative), indexed like {@link RequestCounts#BUCKETS_SECONDS} plus one for the rest. */
    public long[] buckets() {
        long[] out = new long[buckets.length];
        for (int i = 0; i < out.length; i++) out[i] = buckets[i].sum();
        return out;
    }

    public double secondsTotal() {
        return nanosTotal.sum() / 1e9;
    }
}
