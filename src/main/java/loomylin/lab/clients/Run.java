package loomylin.lab.clients;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the connections of one run share: the start signal, the stop flag, and the tallies. A connection ends
 * exactly once, either {@link #done()} (it got the answer to its last request) or {@link #lost} (the target
 * closed it or an I/O error ended it).
 */
final class Run {
    private final CountDownLatch go = new CountDownLatch(1);
    private final CountDownLatch ended;
    private volatile boolean stopping;
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicInteger lost = new AtomicInteger();
    private volatile String firstLoss;

    Run(int connections) {
        this.ended = new CountDownLatch(connections);
    }

    void go() {
        go.countDown();
    }

    void awaitGo() throws InterruptedException {
        go.await();
    }

    /** After this, a connection that gets an answer sends no further request. */
    void stop() {
        stopping = true;
    }

    boolean stopping() {
        return stopping;
    }

    /** One answer arrived: a 2xx counts as completed, anything else as failed. */
    void answered(int status) {
        if (status >= 200 && status < 300) completed.increment();
        else failed.increment();
    }

    void done() {
        ended.countDown();
    }

    void lost(Exception cause) {
        if (firstLoss == null) firstLoss = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        lost.incrementAndGet();
        ended.countDown();
    }

    /** Waits for every connection to end; false if some had not when the time was up. */
    boolean awaitEnded(long timeoutMs) throws InterruptedException {
        return ended.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    long completed() {
        return completed.sum();
    }

    long failed() {
        return failed.sum();
    }

    int lost() {
        return lost.get();
    }

    /** Connections that had neither finished nor been lost. */
    long unfinished() {
        return ended.getCount();
    }

    /** Why the first lost connection ended, or null. */
    String firstLoss() {
        return firstLoss;
    }
}
