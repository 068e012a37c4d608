package loomylin.testing;

import static org.awaitility.Awaitility.await;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import io.javalin.Javalin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import loomylin.server.backend.Backend;
import loomylin.server.jetty.GracefulStop;
import org.awaitility.core.ConditionTimeoutException;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * Stops what a test started and proves it, keeping the evidence when it goes wrong: the stop must return
 * without an exception within the server's grace plus {@link #BOUND_PAST_GRACE} (the bound the docs promise), and
 * afterwards no thread of the server's pool may be alive (virtual ones included). When the stop is still running
 * just before its grace ends, a JSON dump of every thread, virtual ones included
 * ({@link HotSpotDiagnosticMXBean#dumpThreads}), is written under {@link #DUMPS}; it is kept, and its path is in the
 * assertion message, if the stop then throws or overruns (otherwise it is deleted). A thread that survives the
 * stop gets a dump too.
 */
public final class Stops {
    /** Where dumps go: under the build's directory, beside surefire's reports. */
    public static final Path DUMPS = Path.of("target", "stop-overruns");
    /** The stop bound past the grace ({@code --grace-ms}: "the process ends within this + 1 s"). */
    public static final Duration BOUND_PAST_GRACE = Duration.ofSeconds(1);
    /** How long before the grace ends the stop's dump is taken, while Jetty still waits for what holds it. */
    static final long DUMP_BEFORE_GRACE_ENDS_MS = 100;
    /** How long a stopped server's threads may take to end (each pool's stop interrupts what still runs). */
    static final Duration THREADS_END = Duration.ofSeconds(10);

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS");

    private Stops() {
    }

    /** A stop that may throw. */
    @FunctionalInterface
    public interface Stop {
        void run() throws Exception;
    }

    /** Stops a Loomylin server (Java or Kotlin twin) as the product does ({@link GracefulStop}) and proves it. */
    public static void stop(Javalin app) {
        Server server = app.jettyServer().server();
        stop("server " + poolName(server.getThreadPool()), server, () -> GracefulStop.stop(app));
    }

    /** Stops a backend ({@link Backend#close()}) and proves it. */
    public static void stop(Backend backend) {
        Server server = backend.jettyServer();
        stop("backend " + poolName(server.getThreadPool()), server, backend::close);
    }

    /** Stops every one, each whatever happened to the others, then fails with every problem if there was one. */
    public static void stopAll(Collection<?> running) {
        List<String> problems = new ArrayList<>();
        for (Object r : running) {
            try {
                switch (r) {
                    case Javalin app -> stop(app);
                    case Backend backend -> stop(backend);
                    case AutoCloseable c -> c.close();
                    default -> throw new IllegalArgumentException("cannot stop " + r);
                }
            } catch (AssertionError | Exception e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) throw new AssertionError(String.join("\n", problems));
    }

    /**
     * Runs {@code stop} of {@code server}: it must return within the server's grace plus {@link #BOUND_PAST_GRACE}
     * without an exception, and then no thread of the server's pool may be alive.
     */
    public static void stop(String what, Server server, Stop stop) {
        long graceMs = server.getStopTimeout();
        String pool = poolName(server.getThreadPool());
        long bound = graceMs + BOUND_PAST_GRACE.toMillis();
        AtomicReference<Path> dump = new AtomicReference<>();
        Object lock = new Object();
        boolean[] done = {false};
        Thread watchdog = Thread.ofPlatform().daemon().name("stop-watchdog " + what).start(() -> {
            try {
                // with no grace to speak of, halfway to the bound
                Thread.sleep(graceMs > DUMP_BEFORE_GRACE_ENDS_MS ? graceMs - DUMP_BEFORE_GRACE_ENDS_MS : graceMs + BOUND_PAST_GRACE.toMillis() / 2);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (lock) {
                if (done[0]) return;
            }
            dump.set(dump(what.replace(' ', '-') + "-stopping"));
        });
        long t0 = System.nanoTime();
        Exception failure = null;
        try {
            stop.run();
        } catch (Exception e) {
            failure = e;
        }
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        synchronized (lock) {
            done[0] = true;
        }
        watchdog.interrupt();
        try {
            watchdog.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Path taken = dump.get();
        if (failure != null || tookMs > bound) {
            Path evidence = taken != null ? taken : dump(what.replace(' ', '-') + "-stopped");
            throw new AssertionError(what + ": the stop " + (failure != null ? "failed (" + rootCause(failure) + ")" : "overran its bound")
                    + " after " + tookMs + " ms (grace " + graceMs + " ms, bound " + bound + " ms); threads during the stop: " + evidence, failure);
        }
        if (taken != null) deleteQuietly(taken);
        if (pool != null) awaitNoThreads(what, pool.endsWith("-") ? pool : pool + "-");
    }

    /** Waits (at most {@link #THREADS_END}) until no thread, virtual ones included, has a name starting with {@code prefix}. */
    public static void awaitNoThreads(String what, String prefix) {
        try {
            await().atMost(THREADS_END).pollInterval(Duration.ofMillis(100))
                    .until(() -> threadNames().stream().noneMatch(n -> n.startsWith(prefix)));
        } catch (ConditionTimeoutException e) {
            List<String> left = threadNames().stream().filter(n -> n.startsWith(prefix)).toList();
            Path evidence = dump(what.replace(' ', '-') + "-survivors");
            throw new AssertionError(what + ": " + left.size() + " of its threads survived its stop by " + THREADS_END.toSeconds() + " s: "
                    + left + "; threads: " + evidence);
        }
    }

    /**
     * The names of every live thread of this JVM, virtual ones included, from the JDK's thread containers (what its
     * thread dumps enumerate), without snapshotting any stack: polling full JSON dumps crashed a test JVM on 25.0.3
     * (SIGSEGV in {@code stackChunkOopDesc::sender} while snapshotting a virtual thread). Needs
     * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED} (the build's test JVMs have it); without it, the
     * platform threads only.
     */
    public static List<String> threadNames() {
        List<String> names = new ArrayList<>();
        try {
            Object root = Class.forName("jdk.internal.vm.ThreadContainers").getMethod("root").invoke(null);
            collect(root, names);
            return names;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).toList();
        }
    }

    private static void collect(Object container, List<String> names) throws ReflectiveOperationException {
        Class<?> type = Class.forName("jdk.internal.vm.ThreadContainer");
        try (java.util.stream.Stream<?> threads = (java.util.stream.Stream<?>) type.getMethod("threads").invoke(container)) {
            threads.forEach(t -> names.add(((Thread) t).getName()));
        }
        List<?> children;
        try (java.util.stream.Stream<?> s = (java.util.stream.Stream<?>) type.getMethod("children").invoke(container)) {
            children = s.toList();
        }
        for (Object child : children) collect(child, names);
    }

    /** Writes a JSON dump of every thread, virtual ones included, to {@link #DUMPS}/LABEL-TIME.json and returns its path. */
    public static Path dump(String label) {
        try {
            Files.createDirectories(DUMPS);
            Path file = DUMPS.resolve(label.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + LocalDateTime.now().format(STAMP)
                    + "-" + Thread.currentThread().threadId() + "-" + System.nanoTime() % 1_000_000 + ".json").toAbsolutePath();
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(file.toString(), ThreadDumpFormat.JSON);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pool's name, the prefix of its threads' names; null for a pool without one. */
    static String poolName(ThreadPool pool) {
        return switch (pool) {
            case QueuedThreadPool q -> q.getName();
            case VirtualThreadPool v -> v.getName();
            case loomylin.server.java.LoomThreadPool l -> l.getName();
            case loomylin.server.kotlin.LoomThreadPool l -> l.getName();
            default -> null;
        };
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root.toString();
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a dump left behind is harmless
        }
    }
}
