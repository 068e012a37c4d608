package loomylin.server.jetty;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;

/**
 * The outermost handler of every Loomylin server: every answer passes through it, the 503s of
 * {@code --max-in-flight}'s limit and of a graceful stop included (they are written inside it, outside
 * the StatisticsHandler /pool reads). It counts answers by status class, requests in flight and their
 * high-water mark, and keeps a latency histogram, from the moment Jetty hands over a parsed request to the
 * moment its answer is complete. A request still waiting in a platform pool's queue has not reached any
 * handler yet, so it is not in flight here: the pool's queue size counts it.
 *
 * <p>All figures only grow except {@link #inFlight()}; readers take differences.
 */
public final class RequestCounts extends Handler.Wrapper {
    /** Upper bounds of the latency buckets, in seconds; the last bucket is unbounded. */
    public static final double[] BUCKETS_SECONDS = {
            0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08,
            0.1, 0.105, 0.11, 0.12, 0.13, 0.15, 0.175, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.8,
            1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10, 15, 20, 30, 60};

    /** Status classes, index 0 for answers that never completed (the connection failed first). */
    public static final String[] CLASSES = {"failed", "1xx", "2xx", "3xx", "4xx", "5xx"};

    private final LongAdder[] byClass = adders(CLASSES.length);
    private final SecondsHistogram latency = new SecondsHistogram();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    /** The counts of the server's chain; null for a server JettySetup did not set up. */
    public static RequestCounts of(Server server) {
        return server.getDescendant(RequestCounts.class);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long start = System.nanoTime();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        Callback counted = new Callback() {
            @Override
            public void succeeded() {
                done(start, response.getStatus());
                callback.succeeded();
            }

            @Override
            public void failed(Throwable failure) {
                done(start, response.isCommitted() ? response.getStatus() : 0);
                callback.failed(failure);
            }

            @Override
            public InvocationType getInvocationType() {
                return callback.getInvocationType();
            }
        };
        boolean handled;
        try {
            handled = super.handle(request, response, counted);
        } catch (Throwable e) {
            done(start, 500); // Jetty answers 500 for a handler that throws
            throw e;
        }
        if (!handled) done(start, 404); // Jetty answers 404 for a request no handler took
        return handled;
    }

    private void done(long start, int status) {
        long nanos = System.nanoTime() - start;
        inFlight.decrementAndGet();
        int cls = status / 100;
        byClass[cls >= 1 && cls <= 5 ? cls : 0].increment();
        latency.add(nanos);
    }

    /** Requests handed to this server's handlers and not yet answered. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Most requests in flight at once since start. */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    /** Completed answers per status class, indexed like {@link #CLASSES}. */
    public long[] answers() {
        long[] out = new long[CLASSES.length];
        for (int i = 0; i < out.length; i++) out[i] = byClass[i].sum();
        return out;
    }

    /** Completed answers per latency bucket (not cumulative), indexed like {@link #BUCKETS_SECONDS} plus one for the rest. */
    public long[] latencyBuckets() {
        return latency.buckets();
    }

    /** Sum of every completed answer's latency, in seconds. */
    public double latencySecondsTotal() {
        return latency.secondsTotal();
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) a[i] = new LongAdder();
        return a;
    }
}
