package loomylin.jetty;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A fixed-size {@link QueuedThreadPool} whose stop takes at most {@link JettySetup#POOL_STOP_TIMEOUT_MS}: by the
 * time a server stops its pool, the server's graceful stop has already given in-flight requests the grace
 * ({@code --grace-ms}), so the pool only waits a moment before interrupting what still runs. Jetty's
 * {@code Server.doStop} sets the pool's stop timeout to at least 1000 ms (half spent before interrupting), and
 * a pool's own default is 5000 ms when the grace is 0; either would stretch a stop past the grace plus a second.
 */
public final class BoundedStopQueuedThreadPool extends QueuedThreadPool {
    public BoundedStopQueuedThreadPool(int threads, String name) {
        super(threads, threads);
        setName(name);
        setStopTimeout(JettySetup.POOL_STOP_TIMEOUT_MS);
    }

    @Override
    public void setStopTimeout(long ms) {
        super.setStopTimeout(Math.min(ms, JettySetup.POOL_STOP_TIMEOUT_MS));
    }
}
