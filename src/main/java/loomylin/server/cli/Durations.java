package loomylin.server.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import loomylin.server.web.Params;

/**
 * Durations as the command line writes them: a whole number and a unit, {@code 500ms}, {@code 10s} or
 * {@code 2m}, read into a {@link Duration} once, where the flag is read. {@link #go} writes one back in the
 * form Go tools (hey's {@code -z}, oha's {@code -z}, wrk's {@code -d}) read.
 */
public final class Durations {
    private Durations() {
    }

    private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m)");

    /** The units {@link #parse} reads, for help lines and messages. */
    public static final String FORMS = "500ms, 10s or 2m";

    /**
     * The duration {@code text} writes, from {@code min} to {@code max}; a usage error naming {@code source}
     * (the flag or variable it came from) otherwise.
     */
    public static Duration parse(String source, String text, Duration min, Duration max) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMinutes(n);
            };
            if (d.compareTo(min) >= 0 && d.compareTo(max) <= 0) return d;
            throw new UsageError(source + " must be from " + go(min) + " to " + go(max) + ", got '" + Params.printable(text) + "'");
        }
        throw new UsageError(source + " must be a duration such as " + FORMS + ", got '" + Params.printable(String.valueOf(text)) + "'");
    }

    /** The duration in the largest of ms, s, m that writes it exactly: {@code 2m}, {@code 90s}, {@code 1500ms}. */
    public static String go(Duration d) {
        long ms = d.toMillis();
        if (ms % 60_000 == 0 && ms > 0) return ms / 60_000 + "m";
        if (ms % 1_000 == 0) return ms / 1_000 + "s";
        return ms + "ms";
    }
}
