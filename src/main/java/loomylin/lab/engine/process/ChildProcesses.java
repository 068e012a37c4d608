package loomylin.lab.engine.process;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the bench starts (server and backend JVMs, hey) goes through here, so that all of them end:
 * when the bench stops them, when a run fails, and on exit or Ctrl-C through a shutdown hook. Stopping is
 * SIGTERM, a bounded wait, then SIGKILL and another bounded wait.
 */
public final class ChildProcesses {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::stopAll, "bench-stop-children"));
    }

    private ChildProcesses() {
    }

    public static Process start(ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        LIVE.add(p);
        return p;
    }

    /** Stops one process: SIGTERM, up to {@code grace} to exit, then SIGKILL. */
    public static void stop(Process p, Duration grace) {
        if (p.isAlive()) {
            p.destroy();
            if (!waitFor(p, grace)) {
                p.destroyForcibly();
                waitFor(p, KILL_WAIT);
            }
        }
        LIVE.remove(p);
    }

    /** Stops every live child at once (they get the same grace together, not one after another). */
    public static void stopAll() {
        List<Process> all = new ArrayList<>(LIVE);
        all.forEach(Process::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Process p : all) {
            if (!waitFor(p, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) p.destroyForcibly();
        }
        for (Process p : all) {
            waitFor(p, KILL_WAIT);
            LIVE.remove(p);
        }
    }

    public static int live() {
        LIVE.removeIf(p -> !p.isAlive());
        return LIVE.size();
    }

    public static boolean waitFor(Process p, Duration d) {
        try {
            return p.waitFor(d.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !p.isAlive();
        }
    }
}
