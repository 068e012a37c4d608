package loomylin.server.db;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.server.json.Json;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.TestDatabase;
import loomylin.testing.Twin;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** /db-blocking and /db-async against a real PostgreSQL, in both twins: answers, the pool's bound, and its figures. */
class DbBlockingTest {
    static Stream<Arguments> twinsAndRoutes() {
        return Stream.of(Twin.values()).flatMap(t -> Stream.of(Arguments.of(t, "/db-blocking"), Arguments.of(t, "/db-async")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("twinsAndRoutes")
    void readsTheRowItWasAskedFor(Twin twin, String route) {
        Javalin app = twin.start(Twin.options("loom").withDb(TestDatabase.options()));
        try {
            HttpResponse<String> r = Http.get(base(app) + route + "?id=4242&ms=0");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(Map.of("id", 4242, "name", Items.name(4242)), normalise(Json.parse(r.body())));
            HttpResponse<String> any = Http.get(base(app) + route + "?ms=1");
            assertEquals(200, any.statusCode(), any.body());
            int id = ((Number) ((Map<?, ?>) Json.parse(any.body())).get("id")).intValue();
            assertTrue(id >= 1 && id <= Items.ROWS, "a row of the table: " + id);
        } finally {
            Stops.stop(app);
        }
    }

    /**
     * A pool of one connection held 3 s by each request, a timeout of 250 ms: of four requests at once one
     * gets the connection and the rest 503 in one line (the JDBC pool counts them as timeouts); then the pool
     * serves again. For /db-async this also checks the Vert.x message {@link DbPool} recognises.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("twinsAndRoutes")
    void aRequestThatGetsNoConnectionInTimeIs503InOneLine(Twin twin, String route) throws Exception {
        Javalin app = twin.start(Twin.options("loom").withDb(TestDatabase.options(1, DbOptions.TIMEOUT_MIN_MS)));
        try {
            // Vert.x makes its pool's connection on first use, which on a loaded machine can outlast the 250 ms timeout
            await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(base(app) + route + "?id=1&ms=0").statusCode() == 200);
            List<HttpResponse<String>> answers = Http.concurrently(4, base(app) + route + "?id=1&ms=3000");
            List<Integer> statuses = new ArrayList<>(answers.stream().map(HttpResponse::statusCode).sorted().toList());
            assertEquals(List.of(200, 503, 503, 503), statuses, answers.stream().map(HttpResponse::body).toList().toString());
            for (HttpResponse<String> r : answers) {
                if (r.statusCode() != 503) continue;
                assertEquals("database pool: no connection free within 250 ms (1 connections, all busy); try again later\n", r.body());
            }
            Map<?, ?> pool = (Map<?, ?>) Json.parse(Http.get(base(app) + "/pool").body());
            assertEquals(route.equals("/db-blocking") ? 3 : 0, ((Number) pool.get("dbTimeouts")).intValue(), pool.toString());
            assertEquals(1, ((Number) pool.get("dbSize")).intValue(), pool.toString());
            assertEquals(0, ((Number) pool.get("dbPending")).intValue(), pool.toString());
            assertEquals(200, Http.get(base(app) + route + "?id=2&ms=0").statusCode(), "the pool serves again");
        } finally {
            Stops.stop(app);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("twinsAndRoutes")
    void withoutADatabaseTheRouteSaysHowToGetOne(Twin twin, String route) {
        Javalin app = twin.start(Twin.options("loom"));
        try {
            HttpResponse<String> r = Http.get(base(app) + route + "?ms=0");
            assertEquals(503, r.statusCode());
            assertEquals("no database: start Loomylin with --db (a PostgreSQL of its own) or --db-url jdbc:postgresql://...\n", r.body());
            assertEquals(400, Http.get(base(app) + route + "?id=" + (Items.ROWS + 1)).statusCode(), "bad parameters still 400");
        } finally {
            Stops.stop(app);
        }
    }

    private static String base(Javalin app) {
        return "http://127.0.0.1:" + app.port();
    }

    private static Map<String, Object> normalise(Object json) {
        Map<?, ?> m = (Map<?, ?>) json;
        return Map.of("id", ((Number) m.get("id")).intValue(), "name", m.get("name"));
    }
}
