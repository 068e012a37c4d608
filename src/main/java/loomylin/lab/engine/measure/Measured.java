package loomylin.lab.engine.measure;

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
 * @param meanMs     the mean latency of every answered request; NaN where the client does not report it (wrk and
 *                   oha do; hey does not)
 */
public record Measured(long sent, long answered, long ok, Latency latency, double wallS, double clientCpuS, double meanMs) {

    /** A run whose client reports no mean latency. */
    public Measured(long sent, long answered, long ok, Latency latency, double wallS, double clientCpuS) {
        this(sent, answered, ok, latency, wallS, clientCpuS, Double.NaN);
    }

    /** 2xx answers per second of the client's wall time; 0 for a run that took no time. */
    public double okRps() {
        return wallS > 0 ? ok / wallS : 0;
    }

    /**
     * A closed loop's rate by Little's law: {@code clients} requests always in flight over the mean latency. Unlike
     * answers over wall time it leaves out the ramp while the connections open and the requests still in flight
     * when the client stops (up to one latency's worth: a quarter of a 4 s run of 1 s requests). NaN without a
     * mean latency.
     */
    public double littleRps(int clients) {
        return meanMs > 0 ? clients * 1000.0 / meanMs : Double.NaN;
    }

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
