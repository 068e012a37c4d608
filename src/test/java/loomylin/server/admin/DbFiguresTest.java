package loomylin.server.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.server.json.Json;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.TestDatabase;
import loomylin.testing.Twin;
import org.junit.jupiter.api.Test;

/**
 * A server's database pool on the admin port, read while real requests hold its connections: /metrics has its
 * size, connections by client and state, pending requests, connections handed out, their wait and the timeouts,
 * for the JDBC pool behind /db-blocking and for Vert.x's behind /db-async; the live view's figures have them too,
 * and its sentence says the pool is the bound once it is full. A server without a database has none.
 */
class DbFiguresTest {
    @Test
    void theAdminPortShowsThePoolFillingUp() throws Exception {
        Javalin db = Twin.JAVA.start(Twin.options("loom").withDb(TestDatabase.options(2, 10_000)));
        Javalin none = Twin.JAVA.start(Twin.options("loom"));
        AdminServer admin = admin(db, none);
        String port = String.valueOf(db.port());
        String metrics = "http://127.0.0.1:" + admin.port() + "/metrics";
        try {
            Thread load = inBackground(5, "http://127.0.0.1:" + db.port() + "/db-blocking?ms=2500");
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                PrometheusText m = PrometheusText.parse(Http.get(metrics).body());
                return m.series("loomylin_db_connections", "port", port, "pool", "loom", "client", "jdbc", "state", "active") == 2
                        && m.series("loomylin_db_pending", "port", port, "pool", "loom", "client", "jdbc") == 3;
            });
            PrometheusText full = PrometheusText.parse(Http.get(metrics).body());
            assertEquals(2.0, full.series("loomylin_db_pool_size", "port", port, "pool", "loom"));
            assertEquals(2.0, full.series("loomylin_db_connections", "port", port, "pool", "loom", "client", "jdbc", "state", "total"));
            assertEquals(0.0, full.series("loomylin_db_pending", "port", port, "pool", "loom", "client", "vertx"), "no /db-async yet");
            assertTrue(full.all("loomylin_db_pool_size").size() == 1, "a server without a database has no such series");
            Map<?, ?> live = (Map<?, ?>) Json.parse(Http.get("http://127.0.0.1:" + admin.port() + AdminServer.LIVE).body());
            List<?> servers = (List<?>) live.get("servers");
            Map<?, ?> first = (Map<?, ?>) servers.get(0), second = (Map<?, ?>) servers.get(1);
            assertEquals(2, ((Number) first.get("dbSize")).intValue(), first.toString());
            assertEquals(3, ((Number) first.get("dbPending")).intValue(), first.toString());
            assertEquals(null, second.get("dbSize"), "no database, no figures: " + second);
            load.join(Duration.ofSeconds(30));
            PrometheusText after = PrometheusText.parse(Http.get(metrics).body());
            assertTrue(after.series("loomylin_db_connections_acquired_total", "port", port, "pool", "loom", "client", "jdbc") >= 5, "every request got one");
            assertTrue(after.series("loomylin_db_connection_wait_seconds_total", "port", port, "pool", "loom", "client", "jdbc") >= 1.0,
                    "three requests waited for a connection held 2.5 s");
        } finally {
            admin.close();
            Stops.stopAll(List.of(db, none));
        }
    }

    /** The same figures for Vert.x's pool, which reports them only through Vert.x's metrics SPI; on the Kotlin twin. */
    @Test
    void theAdminPortShowsTheNonBlockingPoolFillingUpAndTimingOut() throws Exception {
        Javalin db = Twin.KOTLIN.start(Twin.options("loom").withDb(TestDatabase.options(2, 4_000)));
        AdminServer admin = admin(db);
        String port = String.valueOf(db.port());
        String metrics = "http://127.0.0.1:" + admin.port() + "/metrics";
        try {
            Thread load = inBackground(5, "http://127.0.0.1:" + db.port() + "/db-async?ms=2500");
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                PrometheusText m = PrometheusText.parse(Http.get(metrics).body());
                return m.series("loomylin_db_connections", "port", port, "pool", "loom", "client", "vertx", "state", "active") == 2
                        && m.series("loomylin_db_pending", "port", port, "pool", "loom", "client", "vertx") == 3;
            });
            Map<?, ?> live = (Map<?, ?>) Json.parse(Http.get("http://127.0.0.1:" + admin.port() + AdminServer.LIVE).body());
            Map<?, ?> server = (Map<?, ?>) ((List<?>) live.get("servers")).get(0);
            assertEquals(3, ((Number) server.get("dbPending")).intValue(), "the live view counts either client's waits: " + server);
            Map<?, ?> pool = (Map<?, ?>) Json.parse(Http.get("http://127.0.0.1:" + db.port() + "/pool").body());
            assertEquals(3, ((Number) pool.get("dbAsyncPending")).intValue(), pool.toString());
            assertEquals(0, ((Number) pool.get("dbPending")).intValue(), "the JDBC pool is idle: " + pool);
            load.join(Duration.ofSeconds(30));
            PrometheusText after = PrometheusText.parse(Http.get(metrics).body());
            assertEquals(1.0, after.series("loomylin_db_connection_timeouts_total", "port", port, "pool", "loom", "client", "vertx"),
                    "the fifth request waited 4 s for a connection two others held 2.5 s each, in turn, and timed out");
            assertEquals(4.0, after.series("loomylin_db_connections_acquired_total", "port", port, "pool", "loom", "client", "vertx"));
            assertTrue(after.series("loomylin_db_connection_wait_seconds_total", "port", port, "pool", "loom", "client", "vertx") >= 4.0,
                    "two requests waited 2.5 s and one 4 s before it timed out");
            assertEquals(0.0, after.series("loomylin_db_connections", "port", port, "pool", "loom", "client", "vertx", "state", "active"));
        } finally {
            admin.close();
            Stops.stopAll(List.of(db));
        }
    }

    /** An admin port watching {@code servers}, each a loom server. */
    private static AdminServer admin(Javalin... servers) {
        AdminOptions options = AdminOptions.DEFAULTS.withHost("127.0.0.1").withPort(0);
        for (Javalin s : servers) options = options.withServer(new Watched(s.port(), "loom", s.jettyServer().server()));
        return AdminServer.start(options);
    }

    /** {@code requests} concurrent GETs of {@code url} on a thread of their own; join it for them to end. */
    private static Thread inBackground(int requests, String url) {
        return Thread.ofVirtual().start(() -> {
            try {
                Http.concurrently(requests, url);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
