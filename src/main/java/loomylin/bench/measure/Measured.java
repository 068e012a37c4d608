package loomylin.bench.measure;

/**
 * One measured run's client side, whichever client made it.
 *
 * @param sent       requests sent (hey, oha: the count asked for; wrk: its answers plus its errors)
 * @param answered   responses of any status
 * @param ok         of those, 2xx
 * @param latency    over every answered request; in an open loop counted from each request's intended
 *                   send time
 * @param wallS      from starting the client to its exit: the duration every rps divides by
 * @param clientCpuS the client's own CPU time (user + system, all threads)
 */
public record Measured(long sent, long answered, long ok, Latency latency, double wallS, double clientCpuS) {

    /** Percentiles and maximum in milliseconds; NaN where there was no answer. */
    public record Latency(double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs) {
        public static final Latency NONE = new Latency(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        /** The percentiles ({@link Percentiles}, nearest rank) and maximum of every latency, ascending, in ms; {@link #NONE} for none. */
        public static Latency of(double[] sortedMs) {
            if (sortedMs.length == 0) return NONE;
            return new Latency(Percentiles.of(sortedMs, 50), Percentiles.of(sortedMs, 90), Percentiles.of(sortedMs, 99), Percentiles.of(sortedMs, 99.9),
                    sortedMs[sortedMs.length - 1]);
        }
    }
}
