package loomylin.bench;

import java.util.List;
import java.util.Locale;

/**
 * One measured run: a row of results.csv.
 *
 * @param requests      requests hey was asked to send
 * @param responses     responses it got, any status
 * @param ok            of those, 2xx
 * @param errors        requests without a 2xx answer: no response at all (refused, reset, timed out) or an
 *                      error status; {@code requests - ok}
 * @param durationS     the run's length: first request to last response when every request got a response,
 *                      else hey's whole run (the missing ones may have waited until the end)
 * @param rps           2xx responses per second of {@code durationS}
 * @param cpuS          the server JVM's CPU seconds (user + system) during the measured run; NaN when unknown
 *                      (a --target bench without --metrics), like the server's other figures (-1 for the counts)
 * @param idleRssKb     the server's resident memory after start-up, before any load
 * @param peakRssKb     its most resident memory up to the end of the run (warm-up included)
 * @param peakVszKb     its largest address space, likewise
 * @param peakThreads   its most OS threads seen by sampling every 100 ms (platform threads only)
 * @param clientCpuS    hey's CPU seconds
 * @param clientCpuPct  hey's CPU as a share of all cores during its run, in percent
 * @param serverCpuPct  the server's, likewise
 * @param clientLimited hey used more than the configured share: the load generator, not the server, may
 *                      have been the limit
 */
record RunResult(RunSpec spec, String twin, int requests, int responses, int ok, int errors, double durationS, double rps,
                 double p50Ms, double p90Ms, double p99Ms, double maxMs, double cpuS, long idleRssKb, long peakRssKb,
                 long peakVszKb, int peakThreads, double clientCpuS, double clientCpuPct, double serverCpuPct, boolean clientLimited) {

    static final List<String> COLUMNS = List.of("pool", "endpoint", "concurrency", "requests", "rps", "p50_ms", "p90_ms",
            "p99_ms", "max_ms", "errors", "cpu_s", "idle_rss_kb", "peak_rss_kb", "peak_vsz_kb", "peak_threads", "client_limited",
            "twin", "responses", "ok", "duration_s", "client_cpu_s", "client_cpu_pct", "server_cpu_pct");

    /** Memory the run added on top of the idle server. */
    long rssGrowthKb() {
        return idleRssKb < 0 ? 0 : Math.max(0, peakRssKb - idleRssKb);
    }

    List<String> csvFields() {
        return List.of(spec.pool().toString(), spec.endpoint().toString(), Integer.toString(spec.concurrency()),
                Integer.toString(requests), fixed(rps, 1), fixed(p50Ms, 2), fixed(p90Ms, 2), fixed(p99Ms, 2), fixed(maxMs, 2),
                Integer.toString(errors), fixed(cpuS, 2), count(idleRssKb), count(peakRssKb),
                count(peakVszKb), count(peakThreads), Boolean.toString(clientLimited), twin,
                Integer.toString(responses), Integer.toString(ok), fixed(durationS, 3), fixed(clientCpuS, 2),
                fixed(clientCpuPct, 1), fixed(serverCpuPct, 1));
    }

    /** A count, or "" when unknown (negative). */
    static String count(long value) {
        return value < 0 ? "" : Long.toString(value);
    }

    /** KiB as MiB, NaN when unknown (negative). */
    static double mb(long kb) {
        return kb < 0 ? Double.NaN : kb / 1024.0;
    }

    /** A number with {@code decimals} places, '.' as separator whatever the locale; "" for no value (NaN). */
    static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
