package loomylin.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.util.List;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.server.jetty.ServerOptions;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin port's /metrics over real HTTP: the text format is strictly valid, every server port has its
 * series, and they move under load, the 503s of --max-in-flight included.
 */
class MetricsEndpointTest {
    static Javalin qtp4;
    static Javalin limited;
    static AdminServer admin;

    @BeforeAll
    static void start() {
        qtp4 = Twin.JAVA.start(Twin.options("qtp:4"));
        ServerOptions loom = Twin.options("loom").withMaxInFlight(1).withMaxInFlightWaitMs(0);
        limited = Twin.JAVA.start(loom);
        AdminOptions options = AdminOptions.DEFAULTS.withHost("127.0.0.1").withPort(0)
                .withServer(new Watched(qtp4.port(), "qtp:4", qtp4.jettyServer().server()))
                .withServer(new Watched(limited.port(), "loom", limited.jettyServer().server()));
        admin = AdminServer.start(options);
    }

    @AfterAll
    static void stop() {
        admin.close();
        Stops.stopAll(java.util.List.of(qtp4, limited));
    }

    static PrometheusText scrape() {
        HttpResponse<String> r = Http.get("http://127.0.0.1:" + admin.port() + "/metrics");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"), r.headers().toString());
        return PrometheusText.parse(r.body());
    }

    @Test
    void everyPortHasItsSeriesAndTheProcessItsFigures() {
        PrometheusText m = scrape();
        for (String[] server : List.of(new String[] {String.valueOf(qtp4.port()), "qtp:4"}, new String[] {String.valueOf(limited.port()), "loom"})) {
            String port = server[0];
            String pool = server[1];
            assertEquals(1.0, m.series("loomylin_server_info", "port", port, "pool", pool));
            for (String status : List.of("2xx", "4xx", "5xx", "failed")) m.series("loomylin_requests_total", "port", port, "pool", pool, "status", status);
            m.series("loomylin_requests_in_flight", "port", port, "pool", pool);
            m.series("loomylin_requests_in_flight_max", "port", port, "pool", pool);
            m.series("loomylin_request_duration_seconds_count", "port", port, "pool", pool);
            m.series("loomylin_request_duration_seconds_bucket", "port", port, "pool", pool, "le", "+Inf");
            m.series("loomylin_pool_queued_tasks", "port", port, "pool", pool);
            for (String state : List.of("busy", "idle", "leased", "platform")) m.series("loomylin_pool_threads", "port", port, "pool", pool, "state", state);
            m.series("loomylin_os_threads", "owner", "port " + port);
        }
        assertEquals(2.0, m.series("loomylin_pool_request_limit", "port", String.valueOf(qtp4.port()), "pool", "qtp:4"),
                "qtp:4 less the acceptor and selector");
        assertEquals(4.0, m.series("loomylin_os_threads", "owner", "port " + qtp4.port()));
        assertEquals(4.0, m.series("loomylin_pool_min_threads", "port", String.valueOf(qtp4.port()), "pool", "qtp:4"), "qtp:4 starts all 4");
        assertEquals(4.0, m.series("loomylin_pool_max_threads", "port", String.valueOf(qtp4.port()), "pool", "qtp:4"));
        assertTrue(m.value("loomylin_pool_max_threads", java.util.Map.of("pool", "loom")).isEmpty(), "loom has no QueuedThreadPool bounds");
        m.series("loomylin_pool_virtual_threads_started_total", "port", String.valueOf(limited.port()), "pool", "loom");
        assertTrue(m.series("loomylin_os_threads", "owner", "total") >= m.series("loomylin_os_threads", "owner", "jvm") + 4);
        for (String name : List.of("process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
                "process_open_fds", "jvm_threads_current")) {
            assertTrue(m.series(name) > 0, name);
        }
        assertTrue(m.types().keySet().stream().anyMatch(t -> t.startsWith("jvm_gc_collection_seconds")), "GC figures: " + m.types().keySet());
        assertEquals(List.of(), m.untyped(), "every family has a TYPE line");
    }

    @Test
    void requestsAreCountedByStatusClassThe503sOfTheLimitIncluded() throws Exception {
        String qtpPort = String.valueOf(qtp4.port());
        String loomPort = String.valueOf(limited.port());
        PrometheusText before = scrape();

        for (int i = 0; i < 3; i++) assertEquals(200, Http.get("http://127.0.0.1:" + qtpPort + "/wait-blocking?ms=1").statusCode());
        assertEquals(404, Http.get("http://127.0.0.1:" + qtpPort + "/nothing-here").statusCode());
        List<HttpResponse<String>> answers = Http.concurrently(6, "http://127.0.0.1:" + loomPort + "/wait-blocking?ms=500");
        long ok = answers.stream().filter(a -> a.statusCode() == 200).count();
        long refused = answers.stream().filter(a -> a.statusCode() == 503).count();
        assertEquals(6, ok + refused, "only 200 or 503");
        assertTrue(refused >= 1, "the limit of one must refuse some of six concurrent requests");

        PrometheusText after = scrape();
        assertEquals(3, delta(before, after, "loomylin_requests_total", qtpPort, "qtp:4", "status", "2xx"));
        assertEquals(1, delta(before, after, "loomylin_requests_total", qtpPort, "qtp:4", "status", "4xx"));
        assertEquals(ok, delta(before, after, "loomylin_requests_total", loomPort, "loom", "status", "2xx"));
        assertEquals(refused, delta(before, after, "loomylin_requests_total", loomPort, "loom", "status", "5xx"),
                "every 503 of --max-in-flight is counted");
        assertEquals(4, delta(before, after, "loomylin_request_duration_seconds_count", qtpPort, "qtp:4"));
        assertEquals(6, delta(before, after, "loomylin_request_duration_seconds_count", loomPort, "loom"));
        assertTrue(delta(before, after, "loomylin_request_duration_seconds_bucket", loomPort, "loom", "le", "0.4") <= refused,
                "the 200s slept 500 ms");
        assertTrue(after.series("loomylin_requests_in_flight_max", "port", loomPort, "pool", "loom") >= 2,
                "the refused requests were in flight too");
        assertEquals(0.0, after.series("loomylin_requests_in_flight", "port", loomPort, "pool", "loom"));
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
