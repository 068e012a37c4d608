package loomylin.admin;

import loomylin.jetty.VirtualThreadCounts;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * A server pool's own figures, read from the pool at one moment.
 *
 * @param platformThreads OS threads the pool holds
 * @param busy            threads running a task (virtual ones included), as the pool counts them
 * @param idle            platform threads waiting for work
 * @param queued          tasks waiting for a thread (requests queued in a QueuedThreadPool)
 * @param leased          threads lent for good to Jetty's acceptor and selector
 * @param requestLimit    most requests the pool can run at once; -1 when virtual threads lift the limit
 * @param virtualStarted  virtual threads started by the pool; -1 when the pool does not count them
 */
public record PoolFigures(int platformThreads, int busy, int idle, int queued, int leased, int requestLimit, long virtualStarted) {

    public static PoolFigures of(ThreadPool pool) {
        if (pool instanceof QueuedThreadPool q) {
            boolean virtual = q.getVirtualThreadsExecutor() != null;
            return new PoolFigures(q.getThreads(), q.getBusyThreads(), q.getIdleThreads(), q.getQueueSize(), q.getLeasedThreads(),
                    virtual ? -1 : q.getMaxThreads() - q.getLeasedThreads(), -1);
        }
        if (pool instanceof VirtualThreadCounts v) {
            return new PoolFigures(v.getPlatformThreads(), v.getVirtualThreadsRunning(), pool.getIdleThreads(), 0, 0, -1,
                    v.getVirtualThreadsStarted());
        }
        if (pool instanceof VirtualThreadPool v) {
            return new PoolFigures(0, Math.max(0, v.getThreads() - v.getIdleThreads()), 0, 0, 0,
                    v.getMaxConcurrentTasks() > 0 ? v.getMaxConcurrentTasks() : -1, -1);
        }
        return new PoolFigures(pool.getThreads(), pool.getThreads() - pool.getIdleThreads(), pool.getIdleThreads(), 0, 0, -1, -1);
    }
}
