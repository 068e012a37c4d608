package loomylin.server.jetty;

import java.util.Locale;
import loomylin.server.web.Params;

/** Which implementation serves the endpoints, as {@code --twin} writes it: the same routes in Java or in Kotlin. */
public enum Twin {
    JAVA,
    KOTLIN;

    /** {@code java} or {@code kotlin}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }

    /** The twin {@code text} names; {@link IllegalArgumentException} with a one-line message otherwise. */
    public static Twin parse(String text) {
        for (Twin t : values()) if (t.label().equals(text)) return t;
        throw new IllegalArgumentException("--twin must be java or kotlin, got '" + Params.printable(String.valueOf(text)) + "'");
    }
}
