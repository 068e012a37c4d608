package loomylin.bench;

/**
 * How many requests a measured run sends: {@code rounds} per client, kept within {@code [min, max]}, then
 * rounded down to a multiple of the concurrency. hey gives each of its c workers n/c requests and drops the
 * remainder, so a multiple of c is the count it really sends; and it refuses n &lt; c, so never fewer than c.
 *
 * <p>A count, not a duration ({@code hey -z}): with a known count, requests hey could not complete (refused,
 * reset, timed out, which its CSV leaves out) are the count minus the rows it printed.
 */
record RequestRule(int rounds, int min, int max) {

    int requestsFor(int concurrency) {
        long wanted = Math.min(Math.max((long) concurrency * rounds, min), max);
        long multiple = wanted / concurrency * concurrency;
        return (int) Math.max(multiple, concurrency);
    }

    /** A fixed count from --requests, adjusted to the concurrency the same way. */
    static RequestRule fixed(int requests) {
        return new RequestRule(1, requests, requests);
    }

    String describe() {
        return min == max
                ? min + " per run (rounded down to a multiple of the concurrency, at least the concurrency)"
                : "concurrency x " + rounds + ", kept within " + min + "-" + max
                + " (rounded down to a multiple of the concurrency, at least the concurrency)";
    }
}
