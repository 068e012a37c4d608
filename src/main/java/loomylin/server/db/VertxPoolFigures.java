package loomylin.server.db;

import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The figures of Vert.x's PostgreSQL pool (behind {@code /db-async}), gathered through Vert.x's metrics SPI, its
 * only window onto the pool: Vert.x's SQL pool reports each request for a connection as it queues and leaves the
 * queue ({@link #enqueue()}, {@link #dequeue}), and each connection as it is lent and given back
 * ({@link #begin()}, {@link #end}). A request that times out leaves the queue too, so its wait counts in
 * {@link DbFigures.Async#waitSeconds()}; {@link #timedOut()} counts it apart. Thread-safe.
 */
final class VertxPoolFigures implements PoolMetrics<Long, Boolean> {
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger active = new AtomicInteger();
    private final LongAdder acquired = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    private final LongAdder timeouts = new LongAdder();

    /** The factory to build Vert.x with (metrics enabled): it hands these figures to the SQL pool and no other. */
    VertxMetricsFactory factory() {
        return options -> new VertxMetrics() {
            @Override
            public PoolMetrics<?, ?> createPoolMetrics(String type, String name, int maxSize) {
                return "sql".equals(type) ? VertxPoolFigures.this : null;
            }
        };
    }

    @Override
    public Long enqueue() {
        pending.incrementAndGet();
        return System.nanoTime();
    }

    @Override
    public void dequeue(Long queuedAt) {
        pending.decrementAndGet();
        if (queuedAt != null) waitNanos.add(System.nanoTime() - queuedAt);
    }

    @Override
    public Boolean begin() {
        active.incrementAndGet();
        acquired.increment();
        return Boolean.TRUE;
    }

    @Override
    public void end(Boolean lent) {
        active.decrementAndGet();
    }

    /** A request that waited the pool's timeout and got no connection. */
    void timedOut() {
        timeouts.increment();
    }

    DbFigures.Async snapshot() {
        return new DbFigures.Async(Math.max(0, active.get()), Math.max(0, pending.get()), acquired.sum(), waitNanos.sum() / 1e9, timeouts.sum());
    }
}
