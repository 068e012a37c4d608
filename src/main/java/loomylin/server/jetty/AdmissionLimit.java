package loomylin.server.jetty;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
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
 * {@code --max-in-flight}: at most the limit's requests are past this handler at once. A request that finds
 * every slot taken, or others already waiting, waits, in arrival order, at most {@code maxWaitMs}, and then gets
 * {@code 503} with {@code Retry-After: 1}; with {@code maxWaitMs} 0, or when {@link #MAX_QUEUED} already wait, it
 * gets that answer at once. /pool is never limited.
 *
 * <p>The limit's value comes from a {@link SimpleLimiter} of Netflix's concurrency-limits ({@link LimitStrategy}):
 * fixed ({@code --max-in-flight N}) or moved by an algorithm from what admitted requests take
 * ({@code --max-in-flight auto[:ALGORITHM]}). A slot is the limiter's token ({@link Limiter.Listener}), taken under
 * this handler's lock and given back exactly once, when the request completes, whichever way
 * ({@link Entry#complete}): {@code onSuccess} for an answer below 500, whose time from admission to completion is
 * the algorithm's sample; {@code onDropped} for a {@code 503} or {@code 504} (the server, or what it waited on,
 * was overloaded: a database pool's or a hop's timeout) and for a response that failed by a timeout; {@code onIgnore}
 * for any other 5xx (a handler that threw, a failed backend: not a latency to learn from) and for a
 * connection that failed (the client went away). After each, the freed slot, or the room a raised limit made, goes
 * to the oldest waiters.
 *
 * <p>It never spins and never blocks a thread. A waiting request is data in a queue: its {@code handle} returns
 * at once and its thread goes back to the pool. The request that frees a slot hands it to the oldest waiter,
 * whose handling the server's executor runs. One {@link ReentrantLock} guards the slot count and the queue and
 * is held only to change them; a virtual thread that contends for it parks, so no thread ever waits on
 * another that needs a carrier to move. Jetty's {@code QoSHandler}, which it replaces, does not have that
 * property (docs/reliability/qoshandler-wedge.md).
 *
 * The algorithms change the limit only inside a token's release, always outside this handler's lock: that lock is
 * never held while the library's (a {@code synchronized} sample, held for a few arithmetic steps) is wanted.
 *
 * <p>When the server's graceful stop begins, every waiting request gets the 503 at once; requests that arrive
 * after that pass through to the {@code GracefulHandler}, which refuses them. Requests still running give their
 * slot back when they complete, as always.
 */
final class AdmissionLimit extends Handler.Wrapper implements Graceful {
    static final String EXCLUDED_PATH = "/pool";
    /** The most requests that wait at once; more are refused at once (Jetty's QoSHandler's default). */
    static final int MAX_QUEUED = 1024;

    private final MaxInFlight setting;
    private final SimpleLimiter<Void> limiter;
    private final long maxWaitMs;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiting> queue = new ArrayDeque<>(); // guarded by lock
    private boolean shuttingDown; // guarded by lock
    private volatile int queuedNow; // queue.size(), written under lock; read without it by the figures
    private final LongAdder expired = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder ignored = new LongAdder();
    private final SecondsHistogram waits = new SecondsHistogram();

    AdmissionLimit(MaxInFlight setting, long maxWaitMs) {
        if (!setting.isSet()) throw new IllegalArgumentException("no limit: " + setting);
        if (maxWaitMs < 0) throw new IllegalArgumentException("maxWaitMs must not be negative: " + maxWaitMs);
        this.setting = setting;
        this.limiter = LimitStrategy.limiter(setting);
        this.maxWaitMs = maxWaitMs;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (EXCLUDED_PATH.equals(Request.getPathInContext(request))) return super.handle(request, response, callback);
        long arrived = System.nanoTime();
        Entry entry = new Entry(response);
        // before any slot can be given to it: whichever way the request ends, a slot it holds then goes back
        Request.addCompletionListener(request, entry::complete);
        Waiting waiting = null;
        boolean admit = false;
        boolean stopping = false;
        lock.lock();
        try {
            if (shuttingDown) {
                stopping = true;
            } else if (queue.isEmpty() && entry.take(limiter.acquire(null))) {
                admit = true;
            } else if (maxWaitMs > 0 && queue.size() < MAX_QUEUED) {
                waiting = new Waiting(request, response, callback, arrived, entry);
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

    /** Holding a slot: count the wait, go on down the chain (the slot goes back when the request completes). */
    private boolean admitted(Request request, Response response, Callback callback, long arrived) throws Exception {
        waits.add(System.nanoTime() - arrived);
        return super.handle(request, response, callback);
    }

    /** A slot was given back, or the limit moved: the oldest waiters take the slots there are now. */
    private void admitWaiters() {
        List<Waiting> ready = new ArrayList<>();
        lock.lock();
        try {
            while (!queue.isEmpty() && queue.peekFirst().entry.take(limiter.acquire(null))) ready.add(queue.pollFirst());
            queuedNow = queue.size();
        } finally {
            lock.unlock();
        }
        for (Waiting w : ready) w.resume();
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

    MaxInFlight setting() {
        return setting;
    }

    /** The limit now: the fixed one, or where the algorithm has moved it. */
    int limit() {
        return limiter.getLimit();
    }

    /** Requests holding a slot now (admitted and not yet complete). */
    int admitted() {
        return limiter.getInflight();
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

    /** Slots given back as a success: an answer below 500. */
    long succeeded() {
        return succeeded.sum();
    }

    /** Slots given back as a drop: a 503 or 504 answer, or a response that failed by a timeout. */
    long dropped() {
        return dropped.sum();
    }

    /** Slots given back without a sample: another 5xx, or a connection that failed. */
    long ignored() {
        return ignored.sum();
    }

    /** How long each admitted request waited for its slot. */
    SecondsHistogram waits() {
        return waits;
    }

    @Override
    public String toString() {
        return String.format("%s@%x{%s,limit=%d,admitted=%d,queued=%d,maxWaitMs=%d}", getClass().getSimpleName(), hashCode(), setting,
                limit(), admitted(), queuedNow, maxWaitMs);
    }

    /**
     * One request's hold on a slot. The slot is set under the lock when one is given to the request, and
     * taken back exactly once ({@link AtomicReference#getAndSet}) when the request completes, which Jetty
     * tells every request once, whether it was answered, failed, or its client went away.
     */
    private final class Entry {
        private final Response response;
        private final AtomicReference<Limiter.Listener> slot = new AtomicReference<>();

        Entry(Response response) {
            this.response = response;
        }

        /** Holds {@code token} if there is one; false when the limiter had no slot. */
        boolean take(Optional<Limiter.Listener> token) {
            if (token.isEmpty()) return false;
            slot.set(token.get());
            return true;
        }

        /** The request completed ({@code failure} null when its answer was sent): give its slot back, if it had one. */
        void complete(Throwable failure) {
            Limiter.Listener token = slot.getAndSet(null);
            if (token == null) return;
            try {
                int status = response.getStatus();
                if (failure instanceof TimeoutException || (failure == null && (status == 503 || status == 504))) {
                    dropped.increment();
                    token.onDropped();
                } else if (failure != null || status >= 500) {
                    ignored.increment();
                    token.onIgnore();
                } else {
                    succeeded.increment();
                    token.onSuccess();
                }
            } finally {
                admitWaiters();
            }
        }
    }

    /** A request waiting for a slot; it leaves the queue exactly once, by {@link #resume}, {@link #expire} or a shutdown. */
    private final class Waiting {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final long arrived;
        private final Entry entry;
        private volatile Scheduler.Task timeout;

        Waiting(Request request, Response response, Callback callback, long arrived, Entry entry) {
            this.request = request;
            this.response = response;
            this.callback = callback;
            this.arrived = arrived;
            this.entry = entry;
        }

        /**
         * Taken off the queue with a slot: run it on the server's executor (never on the releasing thread's stack).
         * An executor that refuses (the server is stopping) fails the request, whose completion gives the slot back.
         */
        void resume() {
            Scheduler.Task t = timeout;
            if (t != null) t.cancel();
            try {
                request.getComponents().getExecutor().execute(() -> {
                    try {
                        if (!admitted(request, response, callback, arrived))
                            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
                    } catch (Throwable x) {
                        Response.writeError(request, response, callback, x);
                    }
                });
            } catch (RejectedExecutionException x) {
                callback.failed(x);
            }
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
