package loomylin.jetty;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Jetty thread pool a server runs on, as written on the command line: {@code qtp:4}, {@code loom},
 * {@code jetty-vtp}, {@code jetty-vtp:200}, {@code qtp-vt:8}, {@code qtp-vtp:8:200}. The twins turn a kind
 * into a real pool.
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
 * @param size platform threads for {@code qtp}/{@code qtp-vt}/{@code qtp-vtp}; the concurrent-task cap for
 *             {@code jetty-vtp} (0 = no cap); unused for {@code loom}
 * @param cap  the concurrent-task cap of {@code qtp-vtp}'s virtual-threads executor; 0 for every other kind
 */
public record PoolKind(Type type, int size, int cap) {

    public enum Type {
        /** Jetty QueuedThreadPool, fixed size, platform threads only. */
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

    private static final Pattern SPEC = Pattern.compile("([a-z-]+)(?::(\\d{1,9}))?(?::(\\d{1,9}))?");

    public static final String HELP = "qtp:N | loom | jetty-vtp[:MAX_TASKS] | qtp-vt:N | qtp-vtp:N:MAX_TASKS";

    /** A kind without a second size: every kind but {@code qtp-vtp}. */
    public PoolKind(Type type, int size) {
        this(type, size, 0);
    }

    public static PoolKind parse(String text) {
        Matcher m = SPEC.matcher(text == null ? "" : text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new IllegalArgumentException("unknown pool '" + text + "', expected " + HELP);
        String name = m.group(1);
        Integer n = m.group(2) == null ? null : Integer.valueOf(m.group(2));
        Integer cap = m.group(3) == null ? null : Integer.valueOf(m.group(3));
        for (Type type : Type.values()) {
            if (!type.label.equals(name)) continue;
            if (cap != null && type != Type.QTP_VTP)
                throw new IllegalArgumentException("pool '" + name + "' takes at most one size, got '" + text + "'");
            return switch (type) {
                case LOOM -> {
                    if (n != null) throw new IllegalArgumentException("pool 'loom' takes no size, got '" + text + "'");
                    yield new PoolKind(type, 0);
                }
                case JETTY_VTP -> new PoolKind(type, checkSize(text, n == null ? 0 : n, 0));
                case QTP, QTP_VT -> {
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
        if (n < min || n > MAX_SIZE)
            throw new IllegalArgumentException("pool size in '" + text + "' must be from " + min + " to " + MAX_SIZE
                    + (min > 1 ? " (Jetty keeps " + JettySetup.LOOP_THREADS + " for its acceptor and selector)" : ""));
        return n;
    }

    public static PoolKind qtp(int size) {
        return new PoolKind(Type.QTP, size);
    }

    public static PoolKind loom() {
        return new PoolKind(Type.LOOM, 0);
    }

    /** One line for start-up logs: what this pool is made of. */
    public String describe() {
        return switch (type) {
            case QTP -> "Jetty QueuedThreadPool, " + size + " platform threads";
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
            case QTP, QTP_VT -> type.label + ":" + size;
            case QTP_VTP -> type.label + ":" + size + ":" + cap;
        };
    }
}
