package loomylin.server.jetty;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A {@link QueuedThreadPool}, fixed ({@code qtp:N}) or growing from {@code minThreads} to {@code maxThreads}
 * ({@code qtp:MIN-MAX}, with Jetty's default idle timeout, eviction and reserved threads), whose stop takes at most
 * {@link JettySetup#POOL_STOP_TIMEOUT_MS}: by the time a server stops its pool, the server's graceful stop has
 * already given in-flight requests the grace ({@code --grace-ms}), so the pool only waits a moment before
 * interrupting what still runs. Jetty's {@code Server.doStop} sets the pool's stop timeout to at least 1000 ms
 * (half spent before interrupting), and a pool's own default is 5000 ms when the grace is 0; either would
 * stretch a stop past the grace plus a second.
 */
public final class BoundedStopQueuedThreadPool extends QueuedThreadPool {
    /** A fixed pool: all {@code threads} start with it. */
    public BoundedStopQueuedThreadPool(int threads, String name) {
        this(threads, threads, name);
    }

    /** A pool that starts {@code minThreads} and grows to {@code maxThreads}; Jetty's {@code QueuedThreadPool(max, min)}. */
    public BoundedStopQueuedThreadPool(int maxThreads, int minThreads, String name) {
        super(maxThreads, minThreads);
        setName(name);
        setStopTimeout(JettySetup.POOL_STOP_TIMEOUT_MS);
    }

    @Override
    public void setStopTimeout(long ms) {
        super.setStopTimeout(Math.min(ms, JettySetup.POOL_STOP_TIMEOUT_MS));
    }
}
