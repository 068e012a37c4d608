package loomylin.web;

/**
 * Defaults and allowed ranges of every request parameter, in one place so both twins and the backend agree.
 * The upper bounds keep one request from pinning a core or a connection for minutes.
 */
public final class Limits {
    private Limits() {
    }

    public static final int ITERATIONS_DEFAULT = 25_000;
    public static final int ITERATIONS_MAX = 10_000_000; // about 0.1-0.3 s of one core
    public static final int MS_DEFAULT = 100;
    public static final int MS_MAX = 60_000;
    public static final int DELAY_DEFAULT = 100;
    public static final int DELAY_MAX = 60_000;

    public static final String HELLO = "Hello, World";
    public static final String DEFAULT_TOKEN = "loomylin-demo-token";
    public static final String AUTHORITY = "meetings:read";
    public static final String AUTHORITY_HEADER = "X-Authority";
}
