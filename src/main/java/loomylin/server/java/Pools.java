package loomylin.server.java;

import java.util.LinkedHashMap;
import java.util.Map;
import loomylin.server.jetty.BoundedStopQueuedThreadPool;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.internal.TaskPermits;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/** Turns a {@link PoolKind} into a real Jetty pool, and a pool into the figures /pool reports. */
public final class Pools {
    private Pools() {
    }

    public static ThreadPool create(PoolKind kind, String name) {
        return switch (kind.type()) {
            case QTP -> kind.grows()
                    ? new BoundedStopQueuedThreadPool(kind.size(), kind.min(), name) // new QueuedThreadPool()'s shape: starts min, grows to max
                    : queued(kind.size(), name);
            case LOOM -> {
                LoomThreadPool pool = new LoomThreadPool(name, JettySetup.LOOP_THREADS);
                pool.setStopTimeout(JettySetup.POOL_STOP_TIMEOUT_MS);
                yield pool;
            }
            case JETTY_VTP -> {
                VirtualThreadPool pool = new VirtualThreadPool(kind.size()); // 0: no cap on concurrent tasks
                pool.setName(name + "-"); // it numbers its threads right after the name: NAME-1, as a QueuedThreadPool's
                yield pool;
            }
            case QTP_VT -> {
                QueuedThreadPool pool = queued(kind.size(), name);
                pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor(name + "-vt-"));
                yield pool;
            }
            case QTP_VTP -> {
                QueuedThreadPool pool = queued(kind.size(), name);
                VirtualThreadPool tasks = new VirtualThreadPool(kind.cap()); // caps tasks running at once, not threads created
                tasks.setName(name + "-vt-");
                pool.setVirtualThreadsExecutor(tasks);
                pool.addBean(tasks); // QueuedThreadPool does not start its virtual-threads executor: as its bean it starts and stops with it
                yield pool;
            }
        };
    }

    private static QueuedThreadPool queued(int size, String name) {
        return new BoundedStopQueuedThreadPool(size, name); // fixed size, as the seed's pools were
    }

    /** The pool's own figures, named as Jetty names them. */
    public static Map<String, Object> figures(ThreadPool pool) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("pool", pool.getClass().getSimpleName());
        f.put("threads", pool.getThreads());
        f.put("idleThreads", pool.getIdleThreads());
        if (pool instanceof QueuedThreadPool q) {
            f.put("minThreads", q.getMinThreads());
            f.put("maxThreads", q.getMaxThreads());
            f.put("busyThreads", q.getBusyThreads());
            f.put("leasedThreads", q.getLeasedThreads());
            f.put("reservedThreads", q.getReservedThreads());
            f.put("utilizedThreads", q.getUtilizedThreads());
            f.put("queueSize", q.getQueueSize());
            f.put("virtualThreads", q.getVirtualThreadsExecutor() != null);
            if (q.getVirtualThreadsExecutor() instanceof VirtualThreadPool v) {
                f.put("maxConcurrentTasks", v.getMaxConcurrentTasks());
                putPermits(f, v);
            }
        } else if (pool instanceof LoomThreadPool l) {
            f.put("loopThreads", l.getLoopThreads());
            f.put("platformThreads", l.getPlatformThreads());
            f.put("maxPlatformThreads", l.getMaxPlatformThreads());
            f.put("busyThreads", l.getVirtualThreadsRunning());
            f.put("maxBusyThreads", l.getMaxVirtualThreadsRunning());
            f.put("virtualThreadsStarted", l.getVirtualThreadsStarted());
            f.put("queueSize", 0);
            f.put("virtualThreads", true);
        } else if (pool instanceof VirtualThreadPool v) {
            f.put("maxConcurrentTasks", v.getMaxConcurrentTasks());
            f.put("queueSize", 0);
            f.put("virtualThreads", true);
            putPermits(f, v);
        }
        return f;
    }

    /** A capped VirtualThreadPool's tasks running (holding a permit) and waiting for a permit. */
    private static void putPermits(Map<String, Object> f, VirtualThreadPool v) {
        TaskPermits.of(v).ifPresent(p -> {
            f.put("tasksRunning", p.running());
            f.put("tasksWaiting", p.waiting());
        });
    }
}
