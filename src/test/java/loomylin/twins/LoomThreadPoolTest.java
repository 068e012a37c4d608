package loomylin.twins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.awaitility.Awaitility;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.TryExecutor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Both twins' LoomThreadPool as a Jetty lifecycle component: threads, statistics, stop and join. */
class LoomThreadPoolTest {

    enum Impl {
        JAVA(loomylin.server.java.Pools::figures) {
            ContainerLifeCycle create(String name, long stopMs) {
                loomylin.server.java.LoomThreadPool p = new loomylin.server.java.LoomThreadPool(name, 1);
                p.setStopTimeout(stopMs);
                return p;
            }
        },
        KOTLIN(loomylin.server.kotlin.Pools::figures) {
            ContainerLifeCycle create(String name, long stopMs) {
                loomylin.server.kotlin.LoomThreadPool p = new loomylin.server.kotlin.LoomThreadPool(name, 1);
                p.setStopTimeout(stopMs);
                return p;
            }
        };

        final Function<ThreadPool, Map<String, Object>> figures;

        Impl(Function<ThreadPool, Map<String, Object>> figures) {
            this.figures = figures;
        }

        abstract ContainerLifeCycle create(String name, long stopMs);
    }

    /** Requests running at once in the figure tests. */
    static final int REQUESTS = 50;

    @ParameterizedTest
    @EnumSource(Impl.class)
    void theFirstTaskRunsOnTheNamedPlatformThread(Impl impl) throws Exception {
        try (Started p = Started.of(impl, "t")) {
            Thread loop = p.holdTheLoop();
            assertFalse(loop.isVirtual());
            assertEquals("t-platform-1", loop.getName());
            assertEquals(1, p.figures().get("maxPlatformThreads"));
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void aTaskArrivingWhileTheLoopRunsGoesVirtual(Impl impl) throws Exception {
        try (Started p = Started.of(impl, "t")) {
            p.holdTheLoop();
            CompletableFuture<Thread> chore = new CompletableFuture<>();
            p.pool.execute(() -> chore.complete(Thread.currentThread()));
            assertTrue(chore.get(5, TimeUnit.SECONDS).isVirtual());
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void tryExecuteNeverLendsAPlatformThreadToRunRequests(Impl impl) throws Exception {
        try (Started p = Started.of(impl, "t")) {
            p.holdTheLoop();
            assertFalse(((TryExecutor) p.pool).tryExecute(() -> { }));
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void requestsRunOnNamedVirtualThreads(Impl impl) throws Exception {
        try (Started p = Started.of(impl, "t")) {
            CompletableFuture<Thread> request = new CompletableFuture<>();
            VirtualThreads.getVirtualThreadsExecutor(p.pool).execute(() -> request.complete(Thread.currentThread()));
            Thread t = request.get(5, TimeUnit.SECONDS);
            assertTrue(t.isVirtual());
            assertTrue(t.getName().startsWith("t-vt-"), t.getName());
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void theFiguresCountRequestsWhileTheyRun(Impl impl) throws Exception {
        try (Started p = Started.of(impl, "t")) {
            p.holdTheLoop();
            CountDownLatch release = p.runRequests(REQUESTS);
            Map<String, Object> f = p.figures();
            assertEquals(REQUESTS, f.get("busyThreads"), f.toString());
            assertTrue((int) f.get("maxBusyThreads") >= REQUESTS, f.toString());
            assertEquals(REQUESTS + (int) f.get("platformThreads"), p.pool.getThreads(), f.toString());
            release.countDown();
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void theDumpListsTheRunningVirtualThreads(Impl impl) throws Exception {
        try (Started p = Started.of(impl, "t")) {
            CountDownLatch release = p.runRequests(REQUESTS);
            String dump = p.life.dump();
            assertTrue(dump.contains("virtual threads running size=" + REQUESTS), dump);
            release.countDown();
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void afterTheRequestsTheFiguresKeepTheHighWaterMarkAndTheCountStarted(Impl impl) throws Exception {
        try (Started p = Started.of(impl, "t")) {
            p.runRequests(REQUESTS).countDown();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> (int) p.figures().get("busyThreads") == 0);
            Map<String, Object> f = p.figures();
            assertTrue((int) f.get("maxBusyThreads") >= REQUESTS, f.toString());
            assertEquals((long) REQUESTS, f.get("virtualThreadsStarted"), f.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void stopInterruptsATaskStillRunningAfterTheStopTimeout(Impl impl) throws Exception {
        ContainerLifeCycle life = impl.create("s", 300);
        life.start();
        CompletableFuture<Boolean> interrupted = sleepForAMinute((ThreadPool) life);
        life.stop();
        assertTrue(interrupted.get(5, TimeUnit.SECONDS));
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void joinBlocksWhileRunningAndReturnsAfterStop(Impl impl) throws Exception {
        ContainerLifeCycle life = impl.create("s", 300);
        ThreadPool pool = (ThreadPool) life;
        life.start();
        CompletableFuture<Void> joined = CompletableFuture.runAsync(() -> {
            try {
                pool.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        sleepForAMinute(pool);
        Awaitility.await("join blocks while running").during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !joined.isDone());
        life.stop();
        joined.get(5, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void aStoppedPoolRejectsTasksOnEitherExecutor(Impl impl) throws Exception {
        ContainerLifeCycle life = impl.create("s", 300);
        ThreadPool pool = (ThreadPool) life;
        life.start();
        life.stop();
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        assertThrows(RejectedExecutionException.class, () -> VirtualThreads.getVirtualThreadsExecutor(pool).execute(() -> { }));
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void joinBeforeStartReturnsAtOnce(Impl impl) {
        ThreadPool pool = (ThreadPool) impl.create("j", 300);
        assertTimeoutPreemptively(Duration.ofSeconds(5), pool::join, "a pool that never started has nothing to wait for");
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void joinAfterStopReturnsAtOnce(Impl impl) throws Exception {
        ContainerLifeCycle life = impl.create("k", 300);
        life.start();
        life.stop();
        assertTimeoutPreemptively(Duration.ofSeconds(5), ((ThreadPool) life)::join);
    }

    /** A task on the pool's virtual threads that sleeps a minute; completes true if interrupted. */
    private static CompletableFuture<Boolean> sleepForAMinute(ThreadPool pool) throws InterruptedException {
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        CountDownLatch sleeping = new CountDownLatch(1);
        VirtualThreads.getVirtualThreadsExecutor(pool).execute(() -> {
            try {
                sleeping.countDown();
                Thread.sleep(60_000);
                interrupted.complete(false);
            } catch (InterruptedException e) {
                interrupted.complete(true);
            }
        });
        assertTrue(sleeping.await(5, TimeUnit.SECONDS));
        return interrupted;
    }

    /** A started pool (stop timeout 2 s) that {@link #close()} stops, releasing the loop first; a request still running then is interrupted. */
    private record Started(Impl impl, ContainerLifeCycle life, ThreadPool pool, CountDownLatch done) implements AutoCloseable {
        static Started of(Impl impl, String name) throws Exception {
            ContainerLifeCycle life = impl.create(name, 2_000);
            life.start();
            return new Started(impl, life, (ThreadPool) life, new CountDownLatch(1));
        }

        Map<String, Object> figures() {
            return impl.figures.apply(pool);
        }

        /** The first task, as Jetty's loop in a server: it holds the one platform thread until close. */
        Thread holdTheLoop() throws Exception {
            CompletableFuture<Thread> loop = new CompletableFuture<>();
            pool.execute(() -> {
                loop.complete(Thread.currentThread());
                await(done);
            });
            return loop.get(5, TimeUnit.SECONDS);
        }

        /** {@code n} requests on the pool's virtual threads, all running when this returns, until the latch is released. */
        CountDownLatch runRequests(int n) throws InterruptedException {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch running = new CountDownLatch(n);
            Executor virtual = VirtualThreads.getVirtualThreadsExecutor(pool);
            for (int i = 0; i < n; i++) {
                virtual.execute(() -> {
                    running.countDown();
                    await(release);
                });
            }
            assertTrue(running.await(5, TimeUnit.SECONDS), "all " + n + " requests running");
            return release;
        }

        @Override
        public void close() throws Exception {
            done.countDown();
            life.stop();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
