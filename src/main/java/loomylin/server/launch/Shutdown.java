package loomylin.server.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import loomylin.server.backend.Backend;
import loomylin.server.cli.DataFile;
import loomylin.server.db.LocalPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * How a Loomylin process ends. On SIGTERM or SIGINT it stops everything it runs, the servers in parallel and
 * the backend last, and exits 0. A request still running when the grace ends is cut off: its connection is
 * closed without an answer and one warning says so; the exit status stays 0. A component whose stop fails
 * makes it exit 1. Whatever happens, the process is gone within the grace plus {@link #OVERRUN_MS}: a watchdog
 * halts it then, with status 1 if the stop has not finished (with the stop's own status if only the JVM's exit
 * was slow), after one warning line; when the stop itself overran, that line names a JSON dump of every thread
 * (virtual ones included) taken at that moment. An exit already in the JVM's halt (past the shutdown hooks) is
 * left to finish. A second signal during a stop halts it at once, status 1.
 */
final class Shutdown {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");

    /**
     * How far past the grace a stop may run before the watchdog ends the process: half of the promised second;
     * the other half is for the signal's delivery and the exit itself on a loaded machine.
     */
    static final long OVERRUN_MS = 500;

    /**
     * How long the watchdog waits for its thread dump before it ends the process: a part of the half second
     * {@link #OVERRUN_MS} leaves for the exit. A dump not finished by then is left partial, and the line says so.
     */
    static final long DUMP_MS = 250;

    private Shutdown() {
    }

    /** Blocks until SIGTERM/SIGINT, then stops everything within {@code graceMs} + {@link #OVERRUN_MS} and exits. */
    static void onSignal(List<? extends AutoCloseable> running, long graceMs) {
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean();
        AtomicBoolean clean = new AtomicBoolean();
        AtomicReference<Thread> exiting = new AtomicReference<>();
        SignalHandler handler = signal -> {
            if (stopping.getAndSet(true)) {
                LOG.info("SIG{} again: exiting now", signal.getName());
                Runtime.getRuntime().halt(1);
            }
            LOG.info("SIG{}: stopping; in-flight requests have {} ms to finish (signal again to exit now)", signal.getName(), graceMs);
            // The watchdog bounds the whole exit, shutdown hooks included: whatever is still running at the
            // deadline, the process ends then, 0 if the stop itself finished cleanly, else 1.
            Thread watchdog = Thread.ofPlatform().daemon().name("loomylin-stop-watchdog").unstarted(() -> {
                try {
                    Thread.sleep(graceMs + OVERRUN_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                boolean done = stopped.getCount() == 0;
                // An exit already in the JVM's own halt, past the shutdown hooks, is the last step: halting again
                // would end nothing sooner, so there is nothing to report (on a loaded machine it was still there
                // 282 ms after "stopped": gfx/results/stop-overruns/loaded-qtp32-exit-halting.json).
                if (done && halting(exiting.get())) return;
                if (!done) {
                    // what held the stop, for whoever reads this line: a JSON dump of every thread, virtual ones included.
                    // Not after a clean stop: snapshotting virtual threads has crashed a JVM on 25.0.3 (a SIGSEGV in
                    // stackChunkOopDesc::sender), which would turn that exit's status 0 into a crash.
                    String threads = ThreadDump.toTempFile("loomylin-stop-overrun-", DUMP_MS);
                    LOG.warn("stop did not finish within {} ms; exiting now; threads: {}", graceMs + OVERRUN_MS, threads);
                } else {
                    LOG.warn("stopped, but the exit did not finish within {} ms; exiting now", graceMs + OVERRUN_MS);
                }
                Runtime.getRuntime().halt(done && clean.get() ? 0 : 1);
            });
            watchdog.start();
            Thread.ofPlatform().name("loomylin-stop").start(() -> {
                try {
                    clean.set(stopAll(running));
                } finally {
                    stopped.countDown();
                }
            });
        };
        Signal.handle(new Signal("TERM"), handler);
        Signal.handle(new Signal("INT"), handler);
        // System.exit asks System.getLogger("java.lang.Runtime") whether to log the exit (JDK 21+). The first such
        // call loads the platform's logging, a service look-up over the whole class path: made at the exit, it
        // delayed the exit after "stopped" towards the watchdog on a loaded machine. Made now, the exit does not pay.
        System.getLogger("java.lang.Runtime").isLoggable(System.Logger.Level.DEBUG);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info(clean.get() ? "stopped" : "stopped, but not cleanly (see above)");
        exiting.set(Thread.currentThread());
        System.exit(clean.get() ? 0 : 1);
    }

    /** Whether {@code exiting}, the thread in System.exit, has run the shutdown hooks and is in the JVM's halt. */
    static boolean halting(Thread exiting) {
        if (exiting == null) return false;
        for (StackTraceElement f : exiting.getStackTrace()) {
            if (f.getClassName().equals("java.lang.Shutdown") && f.getMethodName().startsWith("halt")) return true;
        }
        return false;
    }

    /**
     * Stops the servers in parallel (each waits for its own in-flight requests), then the backend, the data
     * file and the database, which requests may still be using until then; false if any stop failed.
     */
    static boolean stopAll(List<? extends AutoCloseable> running) {
        AtomicBoolean clean = new AtomicBoolean(true);
        List<Thread> stoppers = new ArrayList<>();
        for (int i = running.size() - 1; i >= 0; i--) {
            AutoCloseable c = running.get(i);
            if (!stopsLast(c)) stoppers.add(Thread.ofPlatform().start(() -> close(c, clean)));
        }
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                clean.set(false);
            }
        }
        running.stream().filter(Shutdown::stopsLast).forEach(c -> close(c, clean));
        return clean.get();
    }

    private static boolean stopsLast(AutoCloseable c) {
        return c instanceof Backend || c instanceof DataFile || c instanceof LocalPostgres;
    }

    private static void close(AutoCloseable c, AtomicBoolean clean) {
        try {
            c.close();
        } catch (Exception | Error e) {
            if (rootCause(e) instanceof TimeoutException) {
                // Jetty's graceful stop waited the grace and went on: the requests still running were cut off, as promised.
                LOG.warn("stop: requests still running when the grace ended were cut off without an answer");
            } else {
                clean.set(false);
                LOG.warn("stop failed: {}", e.toString());
            }
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root;
    }
}
