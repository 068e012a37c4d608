package loomylin.server.admin;

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
import java.util.concurrent.atomic.AtomicBoolean;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.server.jetty.ServerOptions;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The capacity signal of servers whose threads no longer saturate, read from the admin port's /metrics while
 * real servers are full: more blocking requests than an in-flight limit or a VirtualThreadPool's task cap
 * admits, and more CPU-bound virtual threads than carriers.
 */
@Isolated("it runs more CPU-bound virtual threads than carriers, and the carriers are the JVM's: beside it, another test class's"
        + " virtual threads wait for one, and its stops overrun their grace (gfx/results/stop-overruns/suite-twincontract-stop.json.gz)")
class CapacityMetricsTest {
    static final Duration HOLD = Duration.ofSeconds(20);
    static final int SLEEP_MS = 1500;

    static Javalin limited;   // loom, --max-in-flight 2, queued requests wait up to 30 s
    static Javalin impatient; // loom, --max-in-flight 1, queued requests wait 200 ms
    static Javalin capped;    // qtp-vtp:8:2, no in-flight limit
    static Javalin growing;   // qtp:8-200, new QueuedThreadPool()'s shape
    static AdminServer admin;

    @BeforeAll
    static void start() {
        limited = Twin.JAVA.start(limit(2, 30_000));
        impatient = Twin.JAVA.start(limit(1, 200));
        capped = Twin.JAVA.start(Twin.options("qtp-vtp:8:2"));
        growing = Twin.JAVA.start(Twin.options("qtp:8-200"));
        AdminOptions options = AdminOptions.DEFAULTS.withHost("127.0.0.1").withPort(0)
                .withServer(new Watched(limited.port(), "loom", limited.jettyServer().server()))
                .withServer(new Watched(impatient.port(), "loom", impatient.jettyServer().server()))
                .withServer(new Watched(capped.port(), "qtp-vtp:8:2", capped.jettyServer().server()))
                .withServer(new Watched(growing.port(), "qtp:8-200", growing.jettyServer().server()));
        admin = AdminServer.start(options);
    }

    private static ServerOptions limit(int maxInFlight, int waitMs) {
        ServerOptions o = Twin.options("loom").withMaxInFlight(maxInFlight).withMaxInFlightWaitMs(waitMs);
        return o;
    }

    @AfterAll
    static void stop() {
        admin.close();
        Stops.stopAll(List.of(limited, impatient, capped, growing));
    }

    @Test
    void aFullLimitShowsAdmittedAtTheLimitTheRestQueuedAndTheirWait() throws Exception {
        String port = String.valueOf(limited.port());
        PrometheusText before = scrape();
        assertEquals(2.0, before.series("loomylin_admission_limit", "port", port, "pool", "loom"));
        assertEquals(0.0, before.series("loomylin_admission_in_flight", "port", port, "pool", "loom"));
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> answers = send(clients, 5, limited, "/wait-blocking?ms=" + SLEEP_MS);
            await().atMost(HOLD).until(() -> {
                PrometheusText m = scrape();
                return m.series("loomylin_admission_in_flight", "port", port, "pool", "loom") == 2
                        && m.series("loomylin_admission_queued", "port", port, "pool", "loom") == 3;
            });
            for (Future<HttpResponse<String>> a : answers) assertEquals(200, a.get().statusCode(), "a slot frees up well within the 30 s wait");
        }
        PrometheusText after = scrape();
        assertEquals(5, delta(before, after, "loomylin_admission_wait_seconds_count", port, "loom"), "every admitted request's wait");
        assertTrue(delta(before, after, "loomylin_admission_wait_seconds_bucket", port, "loom", "le", "1.0") <= 2,
                "three waited for a slot that the first two held for " + SLEEP_MS + " ms");
        assertEquals(0.0, after.series("loomylin_admission_queued", "port", port, "pool", "loom"));
    }

    @Test
    void requestsThatWaitTooLongAreCountedAsExpired() throws Exception {
        String port = String.valueOf(impatient.port());
        PrometheusText before = scrape();
        List<HttpResponse<String>> answers = Http.concurrently(3, "http://127.0.0.1:" + port + "/wait-blocking?ms=" + SLEEP_MS);
        long refused = answers.stream().filter(a -> a.statusCode() == 503).count();
        assertTrue(refused >= 1, "one slot held for " + SLEEP_MS + " ms, a 200 ms wait: some of three must expire");
        PrometheusText after = scrape();
        assertEquals(refused, delta(before, after, "loomylin_admission_refused_total", port, "loom", "reason", "expired")
                + delta(before, after, "loomylin_admission_refused_total", port, "loom", "reason", "queue_full"));
        assertTrue(delta(before, after, "loomylin_admission_refused_total", port, "loom", "reason", "expired") >= 1);
    }

    @Test
    void aCappedVirtualThreadPoolShowsItsTasksRunningAtTheCapAndTheRestWaitingForAPermit() throws Exception {
        String port = String.valueOf(capped.port());
        PrometheusText idle = scrape();
        assertEquals(2.0, idle.series("loomylin_pool_request_limit", "port", port, "pool", "qtp-vtp:8:2"));
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> answers = send(clients, 5, capped, "/wait-blocking?ms=" + SLEEP_MS);
            await().atMost(HOLD).until(() -> {
                PrometheusText m = scrape();
                return m.series("loomylin_pool_tasks_running", "port", port, "pool", "qtp-vtp:8:2") == 2
                        && m.series("loomylin_pool_tasks_waiting", "port", port, "pool", "qtp-vtp:8:2") == 3;
            });
            for (Future<HttpResponse<String>> a : answers) assertEquals(200, a.get().statusCode(), "waiting tasks run once a permit frees up");
        }
        assertEquals(0.0, scrape().series("loomylin_pool_tasks_waiting", "port", port, "pool", "qtp-vtp:8:2"));
    }

    @Test
    void aGrowingPoolShowsItsBoundsAndTheThreadsItHoldsNowBetweenThem() throws Exception {
        String port = String.valueOf(growing.port());
        PrometheusText idle = scrape();
        assertEquals(8.0, idle.series("loomylin_pool_min_threads", "port", port, "pool", "qtp:8-200"));
        assertEquals(200.0, idle.series("loomylin_pool_max_threads", "port", port, "pool", "qtp:8-200"));
        assertEquals(198.0, idle.series("loomylin_pool_request_limit", "port", port, "pool", "qtp:8-200"), "its most threads less the acceptor and selector");
        assertTrue(idle.series("loomylin_pool_threads", "port", port, "pool", "qtp:8-200", "state", "platform") < 200, "not all 200 started");
        int requests = 20;
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> answers = send(clients, requests, growing, "/wait-blocking?ms=" + SLEEP_MS);
            // each waiting request holds a thread of its own, beside the acceptor's and the selector's
            await().atMost(HOLD).until(() -> scrape().series("loomylin_pool_threads", "port", port, "pool", "qtp:8-200", "state", "platform") >= requests + 2);
            Map<?, ?> live = liveServer(growing.port());
            assertEquals(8, ((Number) live.get("minThreads")).intValue(), live.toString());
            assertEquals(200, ((Number) live.get("maxThreads")).intValue(), live.toString());
            assertTrue(((Number) live.get("osThreads")).intValue() > 8, live.toString());
            for (Future<HttpResponse<String>> a : answers) assertEquals(200, a.get().statusCode());
        }
        assertTrue(scrape().series("loomylin_pool_threads", "port", port, "pool", "qtp:8-200", "state", "platform") <= 200);
    }

    /** /live's figures of the server on {@code port}. */
    private static Map<?, ?> liveServer(int port) {
        HttpResponse<String> r = Http.get("http://127.0.0.1:" + admin.port() + "/live");
        assertEquals(200, r.statusCode(), r.body());
        for (Object s : (List<?>) Http.field(r, "servers"))
            if (s instanceof Map<?, ?> server && ((Number) server.get("port")).intValue() == port) return server;
        throw new AssertionError("/live has no server on port " + port + ": " + r.body());
    }

    @Test
    void moreCpuBoundVirtualThreadsThanCarriersWaitForACarrier() throws Exception {
        PrometheusText idle = scrape();
        double parallelism = idle.series("loomylin_virtual_thread_scheduler_parallelism");
        AtomicBoolean loading = new AtomicBoolean(true);
        // no limit on this server: impatient's limit would queue them before they reach a virtual thread
        Javalin open = Twin.JAVA.start(Twin.options("loom"));
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 4 * parallelism; i++) {
                clients.submit(() -> {
                    while (loading.get()) Http.get("http://127.0.0.1:" + open.port() + "/computational?iterations=10000000");
                    return null;
                });
            }
            await().atMost(HOLD).until(() -> {
                PrometheusText m = scrape();
                return m.series("loomylin_virtual_threads_queued") >= 1 && m.series("loomylin_virtual_thread_carrier_utilisation") >= 1;
            });
            loading.set(false);
        } finally {
            Stops.stop(open);
        }
    }

    private static List<Future<HttpResponse<String>>> send(ExecutorService clients, int n, Javalin server, String route) {
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) answers.add(clients.submit(() -> Http.get("http://127.0.0.1:" + server.port() + route)));
        return answers;
    }

    static PrometheusText scrape() {
        HttpResponse<String> r = Http.get("http://127.0.0.1:" + admin.port() + "/metrics");
        assertEquals(200, r.statusCode());
        return PrometheusText.parse(r.body());
    }

    private static long delta(PrometheusText before, PrometheusText after, String name, String port, String pool, String... more) {
        String[] labels = new String[4 + more.length];
        labels[0] = "port";
        labels[1] = port;
        labels[2] = "pool";
        labels[3] = pool;
        System.arraycopy(more, 0, labels, 4, more.length);
        return Math.round(after.series(name, labels) - before.series(name, labels));
    }
}
