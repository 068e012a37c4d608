package loomylin.server.admin;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStatus;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * The process's OS threads by owner, so that nobody reads the backend's or the JVM's threads as a server's:
 * each server's pool (its platform threads, as the pool counts them), the in-process backend's pool, the
 * admin port's pool, the virtual-thread carriers, and the rest (the JVM's own: GC, JIT, timers, HTTP
 * clients). The total comes from {@code /proc/self/status} where there is one.
 */
final class ThreadOwners {
    private final Supplier<List<Watched>> servers;
    private final ThreadPool backend;
    private final ThreadPool admin;
    private final VirtualThreadScheduler scheduler;

    ThreadOwners(List<Watched> servers, ThreadPool backend, ThreadPool admin, VirtualThreadScheduler scheduler) {
        this(() -> servers, backend, admin, scheduler);
    }

    /** Servers read at every count; {@code backend} and {@code admin} null where there is none (the agent's admin port is the JDK's). */
    ThreadOwners(Supplier<List<Watched>> servers, ThreadPool backend, ThreadPool admin, VirtualThreadScheduler scheduler) {
        this.servers = servers;
        this.backend = backend;
        this.admin = admin;
        this.scheduler = scheduler;
    }

    /** Owner -> OS threads, in a fixed order: "port N", "backend", "admin", "carriers", "jvm"; and "total". */
    Map<String, Integer> count() {
        Map<String, Integer> owners = new LinkedHashMap<>();
        int total = osThreads();
        int owned = 0;
        for (Watched w : servers.get()) {
            int n = w.poolFigures().platformThreads();
            owners.put("port " + w.port(), n);
            owned += n;
        }
        if (backend != null) {
            owners.put("backend", backend.getThreads());
            owned += backend.getThreads();
        }
        if (admin != null) {
            owners.put("admin", admin.getThreads());
            owned += admin.getThreads();
        }
        int carriers = Math.max(0, scheduler.read().carriers());
        owners.put("carriers", carriers);
        owned += carriers;
        owners.put("jvm", Math.max(0, total - owned));
        owners.put("total", total);
        return owners;
    }

    /** OS threads of this process: the kernel's count on Linux, else the JVM's platform threads. */
    static int osThreads() {
        try {
            return ProcReader.SYSTEM.status(ProcessHandle.current().pid()).map(ProcStatus::threads).filter(n -> n > 0)
                    .orElseGet(() -> ManagementFactory.getThreadMXBean().getThreadCount());
        } catch (IllegalArgumentException e) {
            return ManagementFactory.getThreadMXBean().getThreadCount(); // a status file not as proc(5) describes it
        }
    }
}
