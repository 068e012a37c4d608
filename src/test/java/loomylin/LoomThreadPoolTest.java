package loomylin;

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
        JAVA(loomylin.java.Pools::figures) {
            ContainerLifeCycle create(String name, long stopMs) {
                loomylin.java.LoomThreadPool p = new loomylin.java.LoomThreadPool(name, 1);
                p.setStopTimeout(stopMs);
                return p;
            }
        },
        KOTLIN(loomylin.kotlin.Pools::figures) {
            ContainerLifeCycle create(String name, long stopMs) {
                loomylin.kotlin.LoomThreadPool p = new loomylin.kotlin.LoomThreadPool(name, 1);
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

    @ParameterizedTest
    @EnumSource(Impl.class)
    void platformLoopsVirtualRequestsHonestFigures(Impl impl) throws Exception {
        ContainerLifeCycle life = impl.create("t", 2_000);
        ThreadPool pool = (ThreadPool) life;
        life.start();
        try {
            // The first task (Jetty's loop, in a server) holds the one platform thread; the next goes virtual.
            CompletableFuture<Thread> platform = new CompletableFuture<>();
            CountDownLatch loopEnds = new CountDownLatch(1);
            pool.execute(() -> {
                platform.complete(Thread.currentThread());
                await(loopEnds);
            });
            assertFalse(platform.get(5, TimeUnit.SECONDS).isVirtual());
            assertEquals("t-platform-1", platform.get().getName());
            CompletableFuture<Thread> chore = new CompletableFuture<>();
            pool.execute(() -> chore.complete(Thread.currentThread()));
            assertTrue(chore.get(5, TimeUnit.SECONDS).isVirtual(), "a chore arriving while the loop runs goes virtual");
            assertEquals(1, impl.figures.apply(pool).get("maxPlatformThreads"));
            assertFalse(((TryExecutor) pool).tryExecute(() -> { }), "never lends a platform thread to run requests");

            Executor virtual = VirtualThreads.getVirtualThreadsExecutor(pool);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch running = new CountDownLatch(50);
            CompletableFuture<Thread> one = new CompletableFuture<>();
            for (int i = 0; i < 50; i++) {
                virtual.execute(() -> {
                    one.complete(Thread.currentThread());
                    running.countDown();
                    await(release);
                });
            }
            assertTrue(running.await(5, TimeUnit.SECONDS));
            assertTrue(one.get().isVirtual());
            assertTrue(one.get().getName().startsWith("t-vt-"), one.get().getName());
            Map<String, Object> f = impl.figures.apply(pool);
            assertEquals(50, f.get("busyThreads"), f.toString());
            assertTrue((int) f.get("maxBusyThreads") >= 50, f.toString());
            assertEquals(50 + (int) f.get("platformThreads"), pool.getThreads());
            assertTrue(dump(life).contains("virtual threads running size=50"), dump(life));
            release.countDown();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> (int) impl.figures.apply(pool).get("busyThreads") == 0);
            f = impl.figures.apply(pool);
            assertEquals(0, f.get("busyThreads"), f.toString());
            assertTrue((int) f.get("maxBusyThreads") >= 50, f.toString());
            assertEquals(51L, f.get("virtualThreadsStarted"), "50 requests and the chore: " + f);
            loopEnds.countDown();
        } finally {
            life.stop();
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void stopWaitsThenInterruptsAndJoinReturns(Impl impl) throws Exception {
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
        Awaitility.await("join blocks while running").during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !joined.isDone());
        life.stop();
        assertTrue(interrupted.get(5, TimeUnit.SECONDS), "a task still running after the stop timeout is interrupted");
        joined.get(5, TimeUnit.SECONDS);
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

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String dump(ContainerLifeCycle life) {
        return life.dump();
    }
}
