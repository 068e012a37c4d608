package loomylin.twins;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import loomylin.server.jetty.PoolKind;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code qtp-vtp:N:M} in both twins: the VirtualThreadPool's cap bounds the requests running at once, not the
 * virtual threads made; past it, requests wait for a permit and then run. Read from each twin's /pool figures
 * of the running pool (the server's own /pool would itself wait for a permit).
 */
class CappedVirtualThreadsExecutorTest {
    static final int CAP = 2;
    static final int REQUESTS = 5;

    @ParameterizedTest
    @EnumSource(Twin.class)
    void theCapBoundsTasksRunningAndTheRestWaitForAPermit(Twin twin) throws Exception {
        Javalin app = twin.start(PoolKind.parse("qtp-vtp:8:" + CAP), "http://127.0.0.1:1");
        ThreadPool pool = app.jettyServer().server().getThreadPool();
        AtomicInteger mostRunning = new AtomicInteger();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++)
                answers.add(clients.submit(() -> Http.get("http://127.0.0.1:" + app.port() + "/wait-blocking?ms=1500")));
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                Map<String, Object> f = figures(twin, pool);
                mostRunning.accumulateAndGet(((Number) f.get("tasksRunning")).intValue(), Math::max);
                return ((Number) f.get("tasksWaiting")).intValue() == REQUESTS - CAP;
            });
            for (Future<HttpResponse<String>> a : answers) assertEquals(200, a.get().statusCode());
        } finally {
            Stops.stop(app);
        }
        assertTrue(mostRunning.get() <= CAP, twin + ": at most " + CAP + " tasks ran at once, saw " + mostRunning.get());
    }

    @org.junit.jupiter.api.Test
    void bothTwinsReportTheSameFiguresInTheSameOrder() {
        List<List<String>> keys = new ArrayList<>();
        for (Twin twin : Twin.values()) {
            Javalin app = twin.start(PoolKind.parse("qtp-vtp:8:" + CAP), "http://127.0.0.1:1");
            try {
                keys.add(List.copyOf(figures(twin, app.jettyServer().server().getThreadPool()).keySet()));
            } finally {
                Stops.stop(app);
            }
        }
        assertEquals(keys.get(0), keys.get(1));
        assertTrue(keys.get(0).containsAll(List.of("maxConcurrentTasks", "tasksRunning", "tasksWaiting")), keys.get(0).toString());
    }

    private static Map<String, Object> figures(Twin twin, ThreadPool pool) {
        return twin == Twin.JAVA ? loomylin.server.java.Pools.figures(pool) : loomylin.server.kotlin.Pools.figures(pool);
    }
}
