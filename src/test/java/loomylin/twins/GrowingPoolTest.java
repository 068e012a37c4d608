package loomylin.twins;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code qtp:MIN-MAX} in both twins: the pool is {@code new QueuedThreadPool()}'s shape, starts MIN threads
 * (where {@code qtp:N} starts all N), grows past MIN under concurrent blocking requests and never past MAX.
 * Read from the running pool's own figures, Jetty's and /pool's.
 */
class GrowingPoolTest {
    static final int REQUESTS = 20;

    @ParameterizedTest
    @EnumSource(Twin.class)
    void qtp8To200IsNewQueuedThreadPoolsShape(Twin twin) {
        QueuedThreadPool jettys = new QueuedThreadPool();
        QueuedThreadPool ours = (QueuedThreadPool) create(twin, PoolKind.parse("qtp:8-200"));
        assertEquals(jettys.getMinThreads(), ours.getMinThreads());
        assertEquals(jettys.getMaxThreads(), ours.getMaxThreads());
        assertEquals(jettys.getIdleTimeout(), ours.getIdleTimeout(), "Jetty's default idle timeout");
        assertEquals(60_000, ours.getIdleTimeout(), "the 60 s the docs and PoolKind.describe name");
        assertEquals(jettys.getMaxEvictCount(), ours.getMaxEvictCount(), "Jetty's default shrinking: idle threads evicted per idle timeout");
        assertEquals(1, ours.getMaxEvictCount(), "the one per 60 s the docs and PoolKind.describe name");
        assertEquals(jettys.getReservedThreads(), ours.getReservedThreads(), "Jetty's default reserved threads");
        assertEquals(jettys.getVirtualThreadsExecutor(), ours.getVirtualThreadsExecutor());
        QueuedThreadPool fixed = (QueuedThreadPool) create(twin, PoolKind.parse("qtp:200"));
        assertEquals(200, fixed.getMinThreads(), "qtp:200 is sized up front");
        assertEquals(200, fixed.getMaxThreads());
    }

    @ParameterizedTest
    @EnumSource(Twin.class)
    void aFixedPoolStartsAllItsThreads(Twin twin) {
        Javalin app = twin.start(PoolKind.parse("qtp:16"), "http://127.0.0.1:1");
        try {
            QueuedThreadPool pool = (QueuedThreadPool) app.jettyServer().server().getThreadPool();
            assertEquals(16, pool.getThreads(), "all 16 started with the server");
            HttpResponse<String> figures = Http.get("http://127.0.0.1:" + app.port() + "/pool");
            assertEquals(16, Http.number(figures, "minThreads"), figures.body());
            assertEquals(16, Http.number(figures, "maxThreads"), figures.body());
        } finally {
            Stops.stop(app);
        }
    }

    @ParameterizedTest
    @EnumSource(Twin.class)
    void startsAtMinAndGrowsPastItUnderBlockingRequests(Twin twin) throws Exception {
        Javalin app = twin.start(PoolKind.parse("qtp:8-200"), "http://127.0.0.1:1");
        QueuedThreadPool pool = (QueuedThreadPool) app.jettyServer().server().getThreadPool();
        AtomicInteger most = new AtomicInteger();
        try {
            assertEquals(8, pool.getThreads(), "started MIN threads, not MAX");
            Sampler sampler = new Sampler(pool, most);
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<HttpResponse<String>>> answers = new ArrayList<>();
                for (int i = 0; i < REQUESTS; i++)
                    answers.add(clients.submit(() -> Http.get("http://127.0.0.1:" + app.port() + "/wait-blocking?ms=1500")));
                // each waiting request holds a thread of its own, beside the acceptor's and the selector's
                await().atMost(Duration.ofSeconds(20)).until(() -> pool.getThreads() >= REQUESTS + JettySetup.LOOP_THREADS);
                HttpResponse<String> figures = Http.get("http://127.0.0.1:" + app.port() + "/pool");
                assertTrue(Http.number(figures, "threads") >= REQUESTS + JettySetup.LOOP_THREADS, figures.body());
                assertEquals(8, Http.number(figures, "minThreads"), figures.body());
                assertEquals(200, Http.number(figures, "maxThreads"), figures.body());
                for (Future<HttpResponse<String>> a : answers) assertEquals(200, a.get().statusCode());
            } finally {
                sampler.stop();
            }
        } finally {
            Stops.stop(app);
        }
        assertTrue(most.get() > 8 && most.get() <= 200, twin + ": grew past 8 and not past 200, held " + most.get());
    }

    @ParameterizedTest
    @EnumSource(Twin.class)
    void neverGrowsPastMaxAndQueuesTheRest(Twin twin) throws Exception {
        Javalin app = twin.start(PoolKind.parse("qtp:4-8"), "http://127.0.0.1:1");
        QueuedThreadPool pool = (QueuedThreadPool) app.jettyServer().server().getThreadPool();
        AtomicInteger most = new AtomicInteger();
        try {
            Sampler sampler = new Sampler(pool, most);
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<HttpResponse<String>>> answers = new ArrayList<>();
                for (int i = 0; i < REQUESTS; i++)
                    answers.add(clients.submit(() -> Http.get("http://127.0.0.1:" + app.port() + "/wait-blocking?ms=300")));
                await().atMost(Duration.ofSeconds(20)).until(() -> most.accumulateAndGet(pool.getThreads(), Math::max) == 8 && pool.getQueueSize() > 0);
                for (Future<HttpResponse<String>> a : answers) assertEquals(200, a.get().statusCode(), "a queued request is served, late");
            } finally {
                sampler.stop();
            }
        } finally {
            Stops.stop(app);
        }
        assertEquals(8, most.get(), twin + ": grew to MAX and never past it");
    }

    private static ThreadPool create(Twin twin, PoolKind kind) {
        return twin == Twin.JAVA ? loomylin.server.java.Pools.create(kind, "growing-test") : loomylin.server.kotlin.Pools.create(kind, "growing-test");
    }

    /** Reads the pool's thread count as often as it can until stopped, keeping the most. */
    private static final class Sampler {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Sampler(QueuedThreadPool pool, AtomicInteger most) {
            thread = Thread.ofPlatform().daemon().name("growing-pool-sampler").start(() -> {
                while (running.get()) {
                    most.accumulateAndGet(pool.getThreads(), Math::max);
                    LockSupport.parkNanos(100_000);
                }
            });
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }
}
