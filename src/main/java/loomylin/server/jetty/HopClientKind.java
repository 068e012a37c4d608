package loomylin.server.jetty;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import loomylin.server.web.Params;

/** The blocking HTTP client /hops-blocking waits on, as {@code --hop-client} writes it. */
public enum HopClientKind {
    /** The JDK's {@code HttpClient.send}. */
    JDK,
    /** {@code HttpURLConnection}. */
    URL,
    /** Jetty's {@code HttpClient}. */
    JETTY;

    /** {@code jdk}, {@code url} or {@code jetty}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }

    /** The client {@code text} names; {@link IllegalArgumentException} with a one-line message otherwise. */
    public static HopClientKind parse(String text) {
        for (HopClientKind k : values()) if (k.label().equals(text)) return k;
        throw new IllegalArgumentException("--hop-client must be one of " + Arrays.stream(values()).map(HopClientKind::label).collect(Collectors.joining(", "))
                + ", got '" + Params.printable(String.valueOf(text)) + "'");
    }
}
