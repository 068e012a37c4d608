package loomylin.server.jetty;

import java.util.Locale;
import loomylin.server.web.Params;

/**
 * {@code --max-in-flight}: no limit ({@code 0}), a fixed one ({@code N}), or {@code auto[:ALGORITHM]}, a limit that
 * finds itself from the latency and drops it sees (Netflix's concurrency-limits; {@link LimitStrategy}).
 * {@code auto} alone is {@link #DEFAULT_ALGORITHM}.
 *
 * @param fixed     the fixed limit, 0 for none or for auto
 * @param algorithm the adaptive algorithm, null for none or a fixed limit
 */
public record MaxInFlight(int fixed, Algorithm algorithm) {

    /** The adaptive algorithms {@code auto:NAME} names, each a limit of Netflix's concurrency-limits. */
    public enum Algorithm {
        /** {@code Gradient2Limit}: the short-term RTT against the long-term one; grows while they agree, shrinks as queueing shows. */
        GRADIENT2,
        /** {@code VegasLimit}: the queue estimated from the RTT against the smallest RTT seen (re-probed now and then). */
        VEGAS,
        /** {@code AIMDLimit}: +1 per sample while at least half used, times 0.9 on a drop or an RTT past its timeout. */
        AIMD;

        public String spelling() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What {@code auto} means: Gradient2. It needs no idea of the server's latency without load (Vegas keeps the
     * smallest RTT it has seen, which a 0 ms request on a server that also serves 100 ms ones sets far too low),
     * and it does not wait for drops (AIMD grows until something fails, and a server that queues rarely fails).
     * It does not grow while the server uses less than half of it. Not yet measured against a fixed limit here.
     */
    public static final Algorithm DEFAULT_ALGORITHM = Algorithm.GRADIENT2;

    /** An auto limit starts here (the library's own default for all three algorithms)... */
    public static final int AUTO_INITIAL = 20;
    /** ...never goes below this... */
    public static final int AUTO_MIN = 1;
    /** ...nor above this: room for an unbounded virtual-thread server's thousands of waiting requests. */
    public static final int AUTO_MAX = 10_000;
    /** The largest fixed limit. */
    public static final int MAX_FIXED = 10_000_000;

    public static final MaxInFlight NONE = new MaxInFlight(0, null);

    public MaxInFlight {
        if (fixed < 0 || fixed > MAX_FIXED) throw new IllegalArgumentException("fixed limit out of range: " + fixed);
        if (fixed > 0 && algorithm != null) throw new IllegalArgumentException("a limit is fixed or auto, not both");
    }

    public static MaxInFlight fixed(int limit) {
        return new MaxInFlight(limit, null);
    }

    public static MaxInFlight auto(Algorithm algorithm) {
        return new MaxInFlight(0, algorithm);
    }

    /** {@code 0}, {@code N}, {@code auto}, {@code auto:gradient2}, {@code auto:vegas}, {@code auto:aimd}; anything else is one line. */
    public static MaxInFlight parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.equals("auto")) return auto(DEFAULT_ALGORITHM);
        if (t.startsWith("auto:")) {
            for (Algorithm a : Algorithm.values()) {
                if (a.spelling().equals(t.substring("auto:".length()))) return auto(a);
            }
        } else if (t.matches("\\d{1,9}") && Integer.parseInt(t) <= MAX_FIXED) {
            return fixed(Integer.parseInt(t));
        }
        throw new IllegalArgumentException("--max-in-flight takes a whole number from 0 to " + MAX_FIXED
                + " or auto, auto:gradient2, auto:vegas, auto:aimd; got '" + Params.printable(String.valueOf(text)) + "'");
    }

    /** Whether there is a limit at all. */
    public boolean isSet() {
        return fixed > 0 || algorithm != null;
    }

    public boolean adaptive() {
        return algorithm != null;
    }

    /** The algorithm's name: {@code fixed}, or {@code gradient2}, {@code vegas}, {@code aimd}. */
    public String algorithmName() {
        return algorithm == null ? "fixed" : algorithm.spelling();
    }

    /** The least the limit can be. */
    public int min() {
        return adaptive() ? AUTO_MIN : fixed;
    }

    /** The most the limit can be. */
    public int max() {
        return adaptive() ? AUTO_MAX : fixed;
    }

    /** As the flag is written: {@code 150}, {@code auto:gradient2}, {@code 0}. */
    @Override
    public String toString() {
        return adaptive() ? "auto:" + algorithm.spelling() : String.valueOf(fixed);
    }
}
