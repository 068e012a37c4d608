package loomylin.server.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.component.Dumpable;

/**
 * A server's pool of platform threads for calls that pin a virtual thread's carrier (blocking inside
 * {@code synchronized} on JDK 21): the request's thread hands the call over and waits for its answer, which a
 * virtual thread does without holding its carrier. At most {@link #THREADS} calls run at once, the rest wait in
 * an unbounded queue, as in a {@code QueuedThreadPool} of that size. The threads are made on first use, end after
 * a minute idle, and all end when the server stops (a Jetty bean of the server). One per server; thread-safe.
 */
public final class PlatformOffload extends AbstractLifeCycle implements Dumpable {
    /** Jetty's default {@code QueuedThreadPool} maximum: the platform threads a user would otherwise give every request. */
    public static final int THREADS = 200;
    private static final long STOP_MS = 2_000;
    private final String name;
    private final AtomicInteger made = new AtomicInteger();
    private volatile ThreadPoolExecutor threads;

    /** {@code name} names the threads ({@code name-offload-1}, ...). */
    public PlatformOffload(String name) {
        this.name = name;
    }

    /**
     * Runs {@code call} on one of the platform threads and waits for it; its exception is thrown here as it was
     * thrown there. Interrupted while waiting, it interrupts the call.
     *
     * @throws IllegalStateException when the server is not running
     */
    public <T> T call(Callable<T> call) throws Exception {
        Future<T> f = executor().submit(call);
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private ThreadPoolExecutor executor() {
        ThreadPoolExecutor t = threads;
        if (t != null) return t;
        synchronized (this) {
            if (!isRunning()) throw new IllegalStateException("platform offload " + name + " is not running");
            if (threads == null) {
                ThreadPoolExecutor e = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                        r -> Thread.ofPlatform().daemon().name(name + "-offload-" + made.incrementAndGet()).unstarted(r));
                e.allowCoreThreadTimeOut(true);
                threads = e;
            }
            return threads;
        }
    }

    @Override
    protected void doStop() throws InterruptedException {
        ThreadPoolExecutor t;
        synchronized (this) {
            t = threads;
            threads = null;
        }
        if (t == null) return;
        t.shutdownNow();
        t.awaitTermination(STOP_MS, TimeUnit.MILLISECONDS);
    }

    /** {@code offloadThreads}: platform threads alive now; {@code offloadActive}: calls running; {@code offloadQueued}: calls waiting for a thread. */
    public Map<String, Object> figures() {
        ThreadPoolExecutor t = threads;
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("offloadThreads", t == null ? 0 : t.getPoolSize());
        f.put("offloadActive", t == null ? 0 : t.getActiveCount());
        f.put("offloadQueued", t == null ? 0 : t.getQueue().size());
        return f;
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        Dumpable.dumpObjects(out, indent, this, figures());
    }

    @Override
    public String toString() {
        return String.format("PlatformOffload@%x{%s,max=%d}", hashCode(), getState(), THREADS);
    }
}
