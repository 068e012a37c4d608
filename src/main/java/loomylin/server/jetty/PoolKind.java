package loomylin.server.jetty;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Jetty thread pool a server runs on, as written on the command line: {@code qtp:4}, {@code qtp:8-200},
 * {@code loom}, {@code jetty-vtp}, {@code jetty-vtp:200}, {@code qtp-vt:8}, {@code qtp-vtp:8:200}. The twins turn
 * a kind into a real pool.
 *
 * <p>{@code qtp:N} is a fixed pool: all N threads start with it (Jetty's {@code minThreads} = {@code maxThreads}).
 * {@code qtp:MIN-MAX} grows: it starts MIN threads, starts another only when a task finds none idle, up to MAX,
 * and shrinks back towards MIN by Jetty's defaults: per idle timeout (60 s) at most one ({@code maxEvictCount} 1)
 * thread that stayed idle that long ends. Everything else is Jetty's default too, as for {@code qtp:N}: the
 * reserved threads ({@code reservedThreads} -1, Jetty's heuristic; they are idle threads of the pool, counted in
 * its threads). So {@code qtp:8-200} is {@code new QueuedThreadPool()}'s shape, and {@code qtp:200} a pool of 200
 * sized up front.
 *
 * <p>What a {@code VirtualThreadPool}'s cap ({@code jetty-vtp:M}, {@code qtp-vtp:N:M}; Jetty's
 * {@code setMaxThreads}, an alias of {@code setMaxConcurrentTasks}) limits, read in Jetty 12.1's source: the
 * tasks running at once, not the virtual threads created. {@code execute} starts a new virtual thread for
 * every task at once; that thread then takes one of M permits of a {@link java.util.concurrent.Semaphore}
 * (non-fair) before it runs the task and gives it back after. Past the cap, tasks wait as parked virtual
 * threads, without bound and without a timeout, each holding its request. On {@code jetty-vtp:M} Jetty's
 * selector, acceptor and I/O callbacks are tasks too and take permits; on {@code qtp-vtp:N:M} they run on the
 * platform threads, and the permits go to requests.
 *
 * @param type the family of pool
 * @param size platform threads for {@code qtp}/{@code qtp-vt}/{@code qtp-vtp}, the most ({@code maxThreads}) for a
 *             growing {@code qtp:MIN-MAX}; the concurrent-task cap for {@code jetty-vtp} (0 = no cap); unused for
 *             {@code loom}
 * @param cap  the concurrent-task cap of {@code qtp-vtp}'s virtual-threads executor; 0 for every other kind
 * @param min  the threads a growing {@code qtp:MIN-MAX} starts with and keeps ({@code minThreads}, below
 *             {@code size}); 0 for every other kind, a fixed {@code qtp:N} included
 */
public record PoolKind(Type type, int size, int cap, int min) {

    public enum Type {
        /** Jetty QueuedThreadPool, platform threads only: fixed size ({@code qtp:N}) or growing ({@code qtp:MIN-MAX}). */
        QTP("qtp"),
        /** The project's own LoomThreadPool: platform threads for Jetty's selector and acceptor, a virtual thread per request. */
        LOOM("loom"),
        /** Jetty's own VirtualThreadPool: every thread virtual, the selector and acceptor included. */
        JETTY_VTP("jetty-vtp"),
        /**
         * Jetty QueuedThreadPool whose virtual-threads executor is unbounded (a new virtual thread per task, no cap):
         * Jetty's selector and acceptor on platform threads, requests on virtual threads.
         */
        QTP_VT("qtp-vt"),
        /**
         * Jetty QueuedThreadPool whose virtual-threads executor is a {@code VirtualThreadPool} capped at {@code cap}
         * concurrent tasks: the shape Jetty 12's programming guide marks as preferred (Architecture, Threads,
         * "Virtual Threads Support").
         */
        QTP_VTP("qtp-vtp");

        public final String label;

        Type(String label) {
            this.label = label;
        }
    }

    /** Largest platform pool we accept: beyond this a machine runs out of memory for stacks before it helps. */
    public static final int MAX_SIZE = 20_000;

    private static final Pattern SPEC = Pattern.compile("([a-z-]+)(?::(\\d{1,9})(?:-(\\d{1,9}))?)?(?::(\\d{1,9}))?");

    public static final String HELP = "qtp:N | qtp:MIN-MAX | loom | jetty-vtp[:MAX_TASKS] | qtp-vt:N | qtp-vtp:N:MAX_TASKS";

    /** A kind without a second size: every kind but {@code qtp-vtp} and a growing {@code qtp:MIN-MAX}. */
    public PoolKind(Type type, int size) {
        this(type, size, 0, 0);
    }

    /** A kind with a task cap: {@code qtp-vtp}. */
    public PoolKind(Type type, int size, int cap) {
        this(type, size, cap, 0);
    }

    public static PoolKind parse(String text) {
        Matcher m = SPEC.matcher(text == null ? "" : text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new IllegalArgumentException("unknown pool '" + text + "', expected " + HELP);
        String name = m.group(1);
        Integer n = m.group(2) == null ? null : Integer.valueOf(m.group(2));
        Integer most = m.group(3) == null ? null : Integer.valueOf(m.group(3));
        Integer cap = m.group(4) == null ? null : Integer.valueOf(m.group(4));
        for (Type type : Type.values()) {
            if (!type.label.equals(name)) continue;
            if (most != null && type != Type.QTP)
                throw new IllegalArgumentException("pool '" + name + "' takes no MIN-MAX range (only qtp:MIN-MAX grows), got '" + text + "'");
            if (cap != null && type != Type.QTP_VTP)
                throw new IllegalArgumentException("pool '" + name + "' takes at most one size, got '" + text + "'");
            return switch (type) {
                case LOOM -> {
                    if (n != null) throw new IllegalArgumentException("pool 'loom' takes no size, got '" + text + "'");
                    yield new PoolKind(type, 0);
                }
                case JETTY_VTP -> new PoolKind(type, checkSize(text, n == null ? 0 : n, 0));
                case QTP -> {
                    if (n == null) throw new IllegalArgumentException("pool 'qtp' needs a size, e.g. qtp:32, or a range, e.g. qtp:8-200");
                    if (most == null) yield new PoolKind(type, checkSize(text, n, JettySetup.LOOP_THREADS + 1));
                    int max = checkSize("MAX", text, most, JettySetup.LOOP_THREADS + 1);
                    if (n < 1 || n >= max)
                        throw new IllegalArgumentException("MIN in '" + text + "' must be from 1 to " + (max - 1) + ", below MAX (a pool of " + max
                                + " started up front is qtp:" + max + ")");
                    yield new PoolKind(type, max, 0, n);
                }
                case QTP_VT -> {
                    if (n == null) throw new IllegalArgumentException("pool '" + name + "' needs a size, e.g. " + name + ":32");
                    yield new PoolKind(type, checkSize(text, n, JettySetup.LOOP_THREADS + 1));
                }
                case QTP_VTP -> {
                    if (n == null || cap == null)
                        throw new IllegalArgumentException("pool 'qtp-vtp' needs platform threads and a task cap, e.g. qtp-vtp:8:200");
                    int platform = checkSize(text, n, JettySetup.LOOP_THREADS + 1);
                    if (cap < 1 || cap > MAX_SIZE)
                        throw new IllegalArgumentException("task cap in '" + text + "' must be from 1 to " + MAX_SIZE + " (qtp-vt:N has no cap)");
                    yield new PoolKind(type, platform, cap);
                }
            };
        }
        throw new IllegalArgumentException("unknown pool '" + text + "', expected " + HELP);
    }

    private static int checkSize(String text, int n, int min) {
        return checkSize("pool size", text, n, min);
    }

    private static int checkSize(String what, String text, int n, int min) {
        if (n < min || n > MAX_SIZE)
            throw new IllegalArgumentException(what + " in '" + text + "' must be from " + min + " to " + MAX_SIZE
                    + (min > 1 ? " (Jetty keeps " + JettySetup.LOOP_THREADS + " for its acceptor and selector)" : ""));
        return n;
    }

    public static PoolKind qtp(int size) {
        return new PoolKind(Type.QTP, size);
    }

    /** True for {@code qtp:MIN-MAX}: a QueuedThreadPool that starts {@link #min} threads and grows to {@link #size}. */
    public boolean grows() {
        return min > 0;
    }

    public static PoolKind loom() {
        return new PoolKind(Type.LOOM, 0);
    }

    /** One line for start-up logs: what this pool is made of. */
    public String describe() {
        return switch (type) {
            case QTP -> grows()
                    ? "Jetty QueuedThreadPool, " + min + " platform threads at start, growing to " + size + " (idle ones above " + min + " end, at most one per 60 s)"
                    : "Jetty QueuedThreadPool, " + size + " platform threads";
            case LOOM -> "LoomThreadPool, a virtual thread per request";
            case JETTY_VTP -> "Jetty VirtualThreadPool, " + (size == 0 ? "no task cap" : "at most " + size + " tasks");
            case QTP_VT -> "Jetty QueuedThreadPool of " + size + " platform threads + virtual-threads executor";
            case QTP_VTP -> "Jetty QueuedThreadPool of " + size + " platform threads + VirtualThreadPool, at most " + cap + " tasks";
        };
    }

    /** The canonical spelling, which {@link #parse} reads back. */
    @Override
    public String toString() {
        return switch (type) {
            case LOOM -> "loom";
            case JETTY_VTP -> size == 0 ? "jetty-vtp" : "jetty-vtp:" + size;
            case QTP -> grows() ? "qtp:" + min + "-" + size : "qtp:" + size;
            case QTP_VT -> type.label + ":" + size;
            case QTP_VTP -> type.label + ":" + size + ":" + cap;
        };
    }
}
