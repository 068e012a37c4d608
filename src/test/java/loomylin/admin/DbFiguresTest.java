package loomylin.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.bench.measure.PrometheusText;
import loomylin.json.Json;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.TestDatabase;
import loomylin.testing.Twin;
import org.junit.jupiter.api.Test;

/**
 * A server's database pool on the admin port, read while real requests hold its connections: /metrics has its
 * size, connections by state, pending requests, connections handed out and their wait; the live view's figures
 * have them too, and its sentence says the pool is the bound once it is full. A server without a database has none.
 */
class DbFiguresTest {
    @Test
    void theAdminPortShowsThePoolFillingUp() throws Exception {
        Javalin db = Twin.JAVA.start(Twin.options("loom").withDb(TestDatabase.options(2, 10_000)));
        Javalin none = Twin.JAVA.start(Twin.options("loom"));
        AdminServer admin = AdminServer.start(AdminOptions.DEFAULTS.withHost("127.0.0.1").withPort(0)
                .withServer(new Watched(db.port(), "loom", db.jettyServer().server()))
                .withServer(new Watched(none.port(), "loom", none.jettyServer().server())));
        String port = String.valueOf(db.port());
        String metrics = "http://127.0.0.1:" + admin.port() + "/metrics";
        try {
            Thread load = Thread.ofVirtual().start(() -> {
                try {
                    Http.concurrently(5, "http://127.0.0.1:" + db.port() + "/db-blocking?ms=2500");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                PrometheusText m = PrometheusText.parse(Http.get(metrics).body());
                return m.series("loomylin_db_connections", "port", port, "pool", "loom", "state", "active") == 2
                        && m.series("loomylin_db_pending", "port", port, "pool", "loom") == 3;
            });
            PrometheusText full = PrometheusText.parse(Http.get(metrics).body());
            assertEquals(2.0, full.series("loomylin_db_pool_size", "port", port, "pool", "loom"));
            assertEquals(2.0, full.series("loomylin_db_connections", "port", port, "pool", "loom", "state", "total"));
            assertTrue(full.all("loomylin_db_pool_size").size() == 1, "a server without a database has no such series");
            Map<?, ?> live = (Map<?, ?>) Json.parse(Http.get("http://127.0.0.1:" + admin.port() + AdminServer.LIVE).body());
            List<?> servers = (List<?>) live.get("servers");
            Map<?, ?> first = (Map<?, ?>) servers.get(0), second = (Map<?, ?>) servers.get(1);
            assertEquals(2, ((Number) first.get("dbSize")).intValue(), first.toString());
            assertEquals(3, ((Number) first.get("dbPending")).intValue(), first.toString());
            assertEquals(null, second.get("dbSize"), "no database, no figures: " + second);
            load.join(Duration.ofSeconds(30));
            PrometheusText after = PrometheusText.parse(Http.get(metrics).body());
            assertTrue(after.series("loomylin_db_connections_acquired_total", "port", port, "pool", "loom") >= 5, "every request got one");
            assertTrue(after.series("loomylin_db_connection_wait_seconds_total", "port", port, "pool", "loom") >= 1.0,
                    "three requests waited for a connection held 2.5 s");
        } finally {
            admin.close();
            Stops.stopAll(List.of(db, none));
        }
    }
}
