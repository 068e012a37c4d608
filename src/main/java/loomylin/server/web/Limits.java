package loomylin.server.web;

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
    /** /wait-locked's lock: a monitor held while sleeping, a ReentrantLock held while sleeping, or Object.wait on a monitor. */
    public static final java.util.List<String> LOCKS = java.util.List.of("synchronized", "reentrant", "wait");
    public static final String LOCK_DEFAULT = "synchronized";
    /** /wait-locked's thread: the request's own, or one of the server's platform threads ({@link PlatformOffload}) while the request's waits. */
    public static final java.util.List<String> ON = java.util.List.of("request", "platform");
    public static final String ON_DEFAULT = "request";
    public static final int DELAY_DEFAULT = 100;
    public static final int DELAY_MAX = 60_000;

    /** /mixed: SHA-256 iterations over 256 bytes; the fibers-server seed's default, about 3 ms on its machine. */
    public static final int CPU_DEFAULT = 10_000;
    public static final int CPU_MAX = 1_000_000; // about 0.3-1 s of one core
    /** /mixed: the sleep in ms; its bound is {@link #MS_MAX}. */
    public static final int SLEEP_DEFAULT = 0;
    /** /mixed: bytes of the data file sent back (the seed's 100 KB); at most the data file's size. */
    public static final int FILE_DEFAULT = 100_000;
    /** /mixed: the most backend calls its wait may be split into. */
    public static final int CALLS_MAX = 100;
    /** The data file /mixed reads, made at start-up: {@code --data-file-bytes}. */
    public static final int DATA_FILE_BYTES_DEFAULT = 16 * 1024 * 1024;
    public static final int DATA_FILE_BYTES_MIN = FILE_DEFAULT; // the default request must fit
    public static final int DATA_FILE_BYTES_MAX = 1024 * 1024 * 1024;
}
