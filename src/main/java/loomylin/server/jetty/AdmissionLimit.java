package loomylin.server.jetty;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * {@code --max-in-flight}: at most {@code limit} requests are past this handler at once. A request that finds
 * every slot taken waits, in arrival order, at most {@code maxWaitMs}, and then gets {@code 503} with
 * {@code Retry-After: 1}; with {@code maxWaitMs} 0, or when {@link #MAX_QUEUED} already wait, it gets that
 * answer at once. /pool is never limited.
 *
 * <p>It never spins and never blocks a thread. A waiting request is data in a queue: its {@code handle} returns
 * at once and its thread goes back to the pool. The request that frees a slot hands it to the oldest waiter,
 * whose handling the server's executor runs. One {@link ReentrantLock} guards the slot count and the queue and
 * is held only to change them; a virtual thread that contends for it parks, so no thread ever waits on
 * another that needs a carrier to move. Jetty's {@code QoSHandler}, which it replaces, does not have that
 * property (docs/reliability.md, "The QoSHandler wedge").
 *
 * <p>When the server's graceful stop begins, every waiting request gets the 503 at once; requests that arrive
 * after that pass through to the {@code GracefulHandler}, which refuses them.
 */
final class AdmissionLimit extends Handler.Wrapper implements Graceful {
    static final String EXCLUDED_PATH = "/pool";
    /** The most requests that wait at once; more are refused at once (Jetty's QoSHandler's default). */
    static final int MAX_QUEUED = 1024;

    private final int limit;
    private final long maxWaitMs;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiting> queue = new ArrayDeque<>(); // guarded by lock
    private volatile int running; // written under lock; read without it by the figures
    private boolean shuttingDown; // guarded by lock
    private volatile int queuedNow; // queue.size(), likewise
    private final LongAdder expired = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final SecondsHistogram waits = new SecondsHistogram();

    AdmissionLimit(int limit, long maxWaitMs) {
        if (limit < 1) throw new IllegalArgumentException("limit must be at least 1: " + limit);
        if (maxWaitMs < 0) throw new IllegalArgumentException("maxWaitMs must not be negative: " + maxWaitMs);
        this.limit = limit;
        this.maxWaitMs = maxWaitMs;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (EXCLUDED_PATH.equals(Request.getPathInContext(request))) return super.handle(request, response, callback);
        long arrived = System.nanoTime();
        Waiting waiting = null;
        boolean admit = false;
        boolean stopping = false;
        lock.lock();
        try {
            if (shuttingDown) {
                stopping = true;
            } else if (running < limit) {
                running++;
                admit = true;
            } else if (maxWaitMs > 0 && queue.size() < MAX_QUEUED) {
                waiting = new Waiting(request, response, callback, arrived);
                queue.addLast(waiting);
                queuedNow = queue.size();
            }
        } finally {
            lock.unlock();
        }
        if (stopping) return super.handle(request, response, callback); // the GracefulHandler refuses it
        if (admit) return admitted(request, response, callback, arrived);
        if (waiting != null) {
            waiting.timeout = scheduler().schedule(waiting::expire, maxWaitMs, TimeUnit.MILLISECONDS);
            return true;
        }
        rejected.increment();
        refuse(request, response, callback);
        return true;
    }

    /** Holding a slot: count the wait, free the slot when the request completes, go on down the chain. */
    private boolean admitted(Request request, Response response, Callback callback, long arrived) throws Exception {
        waits.add(System.nanoTime() - arrived);
        Request.addCompletionListener(request, failure -> release());
        return super.handle(request, response, callback);
    }

    /** A request that held a slot completed: its slot goes to the oldest waiter, or back to the count. */
    private void release() {
        Waiting next;
        lock.lock();
        try {
            next = queue.pollFirst();
            if (next == null) running--;
            else queuedNow = queue.size();
        } finally {
            lock.unlock();
        }
        if (next != null) next.resume();
    }

    private Scheduler scheduler() {
        return getServer().getScheduler();
    }

    private static void refuse(Request request, Response response, Callback callback) {
        if (response.isCommitted()) {
            callback.failed(new IllegalStateException("response already committed"));
            return;
        }
        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503, "server at its in-flight limit");
    }

    @Override
    public CompletableFuture<Void> shutdown() {
        List<Waiting> dropped;
        lock.lock();
        try {
            shuttingDown = true;
            dropped = new ArrayList<>(queue);
            queue.clear();
            queuedNow = 0;
        } finally {
            lock.unlock();
        }
        for (Waiting w : dropped) w.refuseOnExecutor();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean isShutdown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }

    @Override
    protected void doStart() throws Exception {
        lock.lock();
        try {
            shuttingDown = false;
        } finally {
            lock.unlock();
        }
        super.doStart();
    }

    int limit() {
        return limit;
    }

    /** Requests holding a slot now (admitted and not yet complete). */
    int admitted() {
        return running;
    }

    /** Requests waiting for a slot now. */
    int queued() {
        return queuedNow;
    }

    /** Requests answered 503 after waiting {@code maxWaitMs} without a slot. */
    long expired() {
        return expired.sum();
    }

    /** Requests answered 503 at once: every slot taken and {@code maxWaitMs} 0, or the queue full. */
    long rejected() {
        return rejected.sum();
    }

    /** How long each admitted request waited for its slot. */
    SecondsHistogram waits() {
        return waits;
    }

    @Override
    public String toString() {
        return String.format("%s@%x{limit=%d,admitted=%d,queued=%d,maxWaitMs=%d}", getClass().getSimpleName(), hashCode(), limit,
                running, queuedNow, maxWaitMs);
    }

    /** A request waiting for a slot; it leaves the queue exactly once, by {@link #resume}, {@link #expire} or a shutdown. */
    private final class Waiting {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final long arrived;
        private volatile Scheduler.Task timeout;

        Waiting(Request request, Response response, Callback callback, long arrived) {
            this.request = request;
            this.response = response;
            this.callback = callback;
            this.arrived = arrived;
        }

        /** Taken off the queue with a slot: run it on the server's executor (never on the releasing thread's stack). */
        void resume() {
            Scheduler.Task t = timeout;
            if (t != null) t.cancel();
            request.getComponents().getExecutor().execute(() -> {
                try {
                    if (!admitted(request, response, callback, arrived))
                        Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
                } catch (Throwable x) {
                    Response.writeError(request, response, callback, x);
                }
            });
        }

        /** Its wait ran out: if it is still queued, it leaves with a 503. */
        void expire() {
            boolean removed;
            lock.lock();
            try {
                removed = queue.remove(this);
                if (removed) queuedNow = queue.size();
            } finally {
                lock.unlock();
            }
            if (removed) {
                expired.increment();
                refuseOnExecutor();
            }
        }

        void refuseOnExecutor() {
            request.getComponents().getExecutor().execute(() -> refuse(request, response, callback));
        }
    }
}
