package loomylin.lab.engine.load;

/**
 * How many requests a closed hey run sends: what the warm-up achieved in the measured window, at least
 * {@code rounds} per client, kept within {@code [min, max]}, then rounded down to a multiple of the
 * concurrency. hey gives each of its c workers n/c requests and drops the remainder, so a multiple of c is
 * the count it really sends; and it refuses n &lt; c, so never fewer than c.
 *
 * <p>A count, not a duration ({@code hey -z}): with a known count, requests hey could not complete (refused,
 * reset, timed out, which its CSV leaves out) are the count minus the rows it printed.
 */
public record RequestRule(int rounds, int min, int max) {

    public int requestsFor(int concurrency, long wanted) {
        long kept = Math.min(Math.max(Math.max(wanted, (long) concurrency * rounds), min), max);
        long multiple = kept / concurrency * concurrency;
        return (int) Math.max(multiple, concurrency);
    }

    /** A fixed count from --requests, adjusted to the concurrency the same way. */
    public static RequestRule fixed(int requests) {
        return new RequestRule(1, requests, requests);
    }

    public boolean isFixed() {
        return min == max;
    }

    public String describe() {
        return isFixed()
                ? min + " per run (rounded down to a multiple of the concurrency, at least the concurrency)"
                : "what the warm-up achieved in the measured window, at least " + rounds + " per client, kept within " + min + "-" + max
                + " (rounded down to a multiple of the concurrency)";
    }
}
