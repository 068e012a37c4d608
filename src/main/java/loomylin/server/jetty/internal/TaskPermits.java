package loomylin.server.jetty.internal;

import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The permits of a capped Jetty {@link VirtualThreadPool}, which Jetty counts but does not report: the pool
 * keeps its cap as a {@link Semaphore} of {@code maxConcurrentTasks} permits, registered as one of its beans
 * while it runs, and every task's virtual thread takes a permit before it runs the task. Reading that bean
 * leans on how {@code VirtualThreadPool.doStart} and {@code execute} are written (checked against
 * {@link Connectors#CHECKED_JETTY_VERSION}); when the bean is missing (an uncapped or stopped pool, or a Jetty
 * that no longer keeps one) there is no reading.
 *
 * @param cap     the pool's concurrent-task cap
 * @param running tasks holding a permit: running now
 * @param waiting virtual threads parked for a permit, each holding its task (the semaphore's estimate)
 */
public record TaskPermits(int cap, int running, int waiting) {

    public static Optional<TaskPermits> of(VirtualThreadPool pool) {
        int cap = pool.getMaxConcurrentTasks();
        Semaphore permits = cap > 0 ? pool.getBean(Semaphore.class) : null;
        if (permits == null) return Optional.empty();
        // Jetty releases a permit also for a waiter interrupted before it got one, so the free permits can exceed the cap
        int running = Math.max(0, cap - permits.availablePermits());
        return Optional.of(new TaskPermits(cap, running, permits.getQueueLength()));
    }
}
