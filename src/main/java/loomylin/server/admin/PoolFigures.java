package loomylin.server.admin;

import java.util.Optional;
import loomylin.server.jetty.VirtualThreadCounts;
import loomylin.server.jetty.internal.TaskPermits;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * A server pool's own figures, read from the pool at one moment.
 *
 * @param platformThreads OS threads the pool holds
 * @param busy            threads running a task (virtual ones included), as the pool counts them; for a capped
 *                        VirtualThreadPool the tasks holding a permit
 * @param idle            platform threads waiting for work
 * @param queued          tasks waiting for a thread (requests queued in a QueuedThreadPool)
 * @param leased          threads lent for good to Jetty's acceptor and selector
 * @param requestLimit    most requests the pool can run at once: a platform pool's request threads, or a
 *                        VirtualThreadPool's task cap ({@code jetty-vtp:M}, {@code qtp-vtp:N:M}); -1 when
 *                        unbounded virtual threads lift the limit
 * @param virtualStarted  virtual threads started by the pool; -1 when the pool does not count them
 * @param tasksRunning    a capped VirtualThreadPool's tasks holding a permit; -1 for other pools
 * @param tasksWaiting    a capped VirtualThreadPool's tasks parked for a permit (each on its own virtual
 *                        thread: requests, and on {@code jetty-vtp:M} Jetty's own I/O tasks too); -1 for other pools
 * @param minThreads      a QueuedThreadPool's {@code minThreads}: the threads it starts with and keeps (MIN of
 *                        {@code qtp:MIN-MAX}, all N of {@code qtp:N}); -1 for other pools
 * @param maxThreads      a QueuedThreadPool's {@code maxThreads}: the most threads it grows to; -1 for other pools.
 *                        {@code platformThreads} is where it is now, between the two
 */
public record PoolFigures(int platformThreads, int busy, int idle, int queued, int leased, int requestLimit, long virtualStarted,
                          int tasksRunning, int tasksWaiting, int minThreads, int maxThreads) {

    public static PoolFigures of(ThreadPool pool) {
        if (pool instanceof QueuedThreadPool q) {
            Optional<TaskPermits> permits = q.getVirtualThreadsExecutor() instanceof VirtualThreadPool v ? TaskPermits.of(v) : Optional.empty();
            boolean virtual = q.getVirtualThreadsExecutor() != null;
            int limit = permits.map(TaskPermits::cap).orElse(virtual ? -1 : q.getMaxThreads() - q.getLeasedThreads());
            return new PoolFigures(q.getThreads(), q.getBusyThreads(), q.getIdleThreads(), q.getQueueSize(), q.getLeasedThreads(), limit, -1,
                    permits.map(TaskPermits::running).orElse(-1), permits.map(TaskPermits::waiting).orElse(-1), q.getMinThreads(), q.getMaxThreads());
        }
        if (pool instanceof VirtualThreadCounts v) {
            return new PoolFigures(v.getPlatformThreads(), v.getVirtualThreadsRunning(), pool.getIdleThreads(), 0, 0, -1,
                    v.getVirtualThreadsStarted(), -1, -1, -1, -1);
        }
        if (pool instanceof VirtualThreadPool v) {
            Optional<TaskPermits> permits = TaskPermits.of(v);
            int busy = permits.map(TaskPermits::running).orElse(Math.max(0, v.getThreads() - v.getIdleThreads()));
            return new PoolFigures(0, busy, 0, 0, 0, v.getMaxConcurrentTasks() > 0 ? v.getMaxConcurrentTasks() : -1, -1,
                    permits.map(TaskPermits::running).orElse(-1), permits.map(TaskPermits::waiting).orElse(-1), -1, -1);
        }
        return new PoolFigures(pool.getThreads(), pool.getThreads() - pool.getIdleThreads(), pool.getIdleThreads(), 0, 0, -1, -1, -1, -1, -1, -1);
    }
}
