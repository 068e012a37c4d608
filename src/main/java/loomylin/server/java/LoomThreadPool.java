package loomylin.server.java;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import loomylin.server.jetty.VirtualThreadCounts;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.annotation.ManagedAttribute;
import org.eclipse.jetty.util.annotation.ManagedObject;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.component.Dumpable;
import org.eclipse.jetty.util.component.DumpableCollection;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.TryExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Jetty {@link ThreadPool} that runs every request on its own virtual thread.
 *
 * <p>Jetty hands a pool two kinds of work through {@link #execute}: its selector and acceptor loops, which
 * run for the server's whole life, and short chores (an accepted socket, a connection resumed after an async
 * response, a closed endpoint). The first {@code loopThreads} tasks running at once get platform threads, so
 * the loops never occupy a carrier; any task that finds them busy runs on a fresh virtual thread. Request work
 * Jetty sends through {@link #getVirtualThreadsExecutor()} (the {@link VirtualThreads.Configurable} contract
 * its execution strategy honours) gets a fresh virtual thread too: no pool, no queue, no limit. So the pool
 * never holds more than {@code loopThreads} platform threads, whatever the load.
 *
 * <p>{@link #tryExecute} always refuses: were it to succeed, Jetty would run the request on the selector's
 * platform thread.
 *
 * <p>{@link #stop()} waits up to {@link #getStopTimeout()} for running virtual threads, then interrupts them.
 * {@link #join()} returns once the pool is stopped, at once for a pool that is not running.
 */
@ManagedObject("A virtual thread per request; platform threads for Jetty's selectors and acceptors")
public final class LoomThreadPool extends ContainerLifeCycle implements ThreadPool, TryExecutor, VirtualThreads.Configurable, VirtualThreadCounts {
    private static final Logger LOG = LoggerFactory.getLogger(LoomThreadPool.class);

    private final String name;
    private final int loopThreads;
    private final ThreadFactory virtualThreads;
    private final Executor virtualExecutor = this::startVirtual;
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final LongAdder started = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private volatile ThreadPoolExecutor platform;
    private volatile CountDownLatch stopped = new CountDownLatch(0);
    private volatile long stopTimeoutMs = 5_000;

    /**
     * @param name        prefix of every thread's name
     * @param loopThreads platform threads for Jetty's long-running loops: its selectors plus acceptors
     */
    public LoomThreadPool(String name, int loopThreads) {
        this.name = name;
        this.loopThreads = loopThreads;
        this.virtualThreads = Thread.ofVirtual().name(name + "-vt-", 0).factory();
    }

    @ManagedAttribute("how long stop() waits for running virtual threads before interrupting them")
    public long getStopTimeout() {
        return stopTimeoutMs;
    }

    public void setStopTimeout(long ms) {
        stopTimeoutMs = ms;
    }

    @ManagedAttribute("name, the prefix of every thread's name")
    public String getName() {
        return name;
    }

    @Override
    protected void doStart() throws Exception {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory platformThreads = task -> {
            Thread t = new Thread(task, name + "-platform-" + count.incrementAndGet());
            t.setDaemon(false);
            return t;
        };
        // At most loopThreads platform threads and no queue: a task that finds them all busy goes virtual.
        platform = new ThreadPoolExecutor(loopThreads, loopThreads, 0, TimeUnit.SECONDS, new SynchronousQueue<>(), platformThreads,
                (task, executor) -> {
                    if (executor.isShutdown()) throw new RejectedExecutionException(name + " is " + getState());
                    startVirtual(task);
                });
        stopped = new CountDownLatch(1);
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop();
        ThreadPoolExecutor p = platform;
        p.shutdown();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(getStopTimeout());
        while (!running.isEmpty() && System.nanoTime() < deadline) Thread.sleep(10);
        if (!running.isEmpty()) {
            LOG.warn("{}: {} virtual threads still running after {} ms, interrupting", name, running.size(), getStopTimeout());
            running.forEach(Thread::interrupt);
        }
        if (!p.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) p.shutdownNow();
        stopped.countDown();
    }

    /** Jetty's long-running loops get the platform threads; anything arriving once they are taken goes virtual. */
    @Override
    public void execute(Runnable task) {
        ThreadPoolExecutor p = platform;
        if (p == null || p.isShutdown()) throw new RejectedExecutionException(name + " is " + getState());
        p.execute(task);
    }

    /** Never lends a thread for Jetty's execute-produce-consume mode; see the class comment. */
    @Override
    public boolean tryExecute(Runnable task) {
        return false;
    }

    @Override
    public Executor getVirtualThreadsExecutor() {
        return virtualExecutor;
    }

    @Override
    public void setVirtualThreadsExecutor(Executor executor) {
        throw new UnsupportedOperationException("LoomThreadPool always starts its own virtual threads");
    }

    private void startVirtual(Runnable task) {
        if (!isRunning() && !isStopping()) throw new RejectedExecutionException(name + " is " + getState());
        virtualThreads.newThread(() -> runCounted(task)).start();
    }

    private void runCounted(Runnable task) {
        Thread self = Thread.currentThread();
        running.add(self);
        started.increment();
        maxRunning.accumulateAndGet(running.size(), Math::max);
        try {
            task.run();
        } catch (Throwable t) {
            failed.increment();
            LOG.warn("{}: task failed: {}", name, t.toString());
        } finally {
            running.remove(self);
        }
    }

    @Override
    public void join() throws InterruptedException {
        stopped.await();
    }

    /** Platform threads alive plus virtual threads running. */
    @Override
    @ManagedAttribute("threads: platform threads alive plus virtual threads running")
    public int getThreads() {
        return getPlatformThreads() + getVirtualThreadsRunning();
    }

    /** Platform threads waiting for a loop to run; virtual threads are never idle, they end. */
    @Override
    @ManagedAttribute("idle platform threads")
    public int getIdleThreads() {
        ThreadPoolExecutor p = platform;
        return p == null ? 0 : p.getPoolSize() - p.getActiveCount();
    }

    /** A virtual thread is always available. */
    @Override
    public boolean isLowOnThreads() {
        return false;
    }

    @ManagedAttribute("platform threads for Jetty's loops, at most")
    public int getLoopThreads() {
        return loopThreads;
    }

    @ManagedAttribute("platform threads alive")
    @Override
    public int getPlatformThreads() {
        ThreadPoolExecutor p = platform;
        return p == null ? 0 : p.getPoolSize();
    }

    @ManagedAttribute("most platform threads alive at once")
    public int getMaxPlatformThreads() {
        ThreadPoolExecutor p = platform;
        return p == null ? 0 : p.getLargestPoolSize();
    }

    @ManagedAttribute("virtual threads running a task now")
    @Override
    public int getVirtualThreadsRunning() {
        return running.size();
    }

    @ManagedAttribute("most virtual threads running at once since start or resetMax()")
    public int getMaxVirtualThreadsRunning() {
        return maxRunning.get();
    }

    @ManagedAttribute("virtual threads started since start")
    @Override
    public long getVirtualThreadsStarted() {
        return started.sum();
    }

    @ManagedAttribute("tasks that ended with an exception")
    public long getFailedTasks() {
        return failed.sum();
    }

    public void resetMax() {
        maxRunning.set(running.size());
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        List<String> threads = new ArrayList<>();
        for (Thread t : running) {
            StackTraceElement[] stack = t.getStackTrace();
            threads.add(t.getName() + " " + t.getState() + (stack.length > 0 ? " at " + stack[0] : ""));
        }
        Dumpable.dumpObjects(out, indent, this, new DumpableCollection("virtual threads running", threads));
    }

    @Override
    public String toString() {
        return String.format("%s[%s]@%x{%s,platform=%d,virtual=%d,maxVirtual=%d,started=%d}",
                getClass().getSimpleName(), name, hashCode(), getState(), getPlatformThreads(),
                getVirtualThreadsRunning(), getMaxVirtualThreadsRunning(), getVirtualThreadsStarted());
    }
}
