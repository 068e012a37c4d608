package loomylin.server.db;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import loomylin.server.json.Json;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.TestDatabase;
import loomylin.testing.Twin;
import org.junit.jupiter.api.Test;

/**
 * Vert.x's SQL pool (vertx-sql-client 5.0.7) keeps a request that timed out waiting for a connection in its queue
 * until a connection comes to it: {@code SqlConnectionPool.execute} fails the caller on a timer and leaves its
 * acquire standing, then hands the connection straight back. So {@code /db-async}'s pending count holds those
 * abandoned waiters beside the live ones, and can read more than the requests in flight (docs/results/database.md, the
 * database section). The day Vert.x cancels them, this test fails and that note goes.
 */
class VertxAbandonedWaitersTest {
    @Test
    void aRequestThatTimedOutStaysInVertxsQueueUntilAConnectionComesToIt() throws Exception {
        Javalin app = Twin.JAVA.start(Twin.options("loom").withDb(TestDatabase.options(1, DbOptions.TIMEOUT_MIN_MS)));
        String base = "http://127.0.0.1:" + app.port();
        try (HttpClient client = HttpClient.newHttpClient()) {
            // Vert.x makes the pool's connection on first use; on a loaded machine that can outlast the 250 ms timeout, so make it first
            await().atMost(Duration.ofSeconds(30)).until(() -> Http.get(base + "/db-async?id=1&ms=0").statusCode() == 200);
            await().atMost(Duration.ofSeconds(10)).until(() -> figure(base, "dbAsyncPending") == 0);
            CompletableFuture<HttpResponse<String>> holder = client.sendAsync(HttpRequest.newBuilder(URI.create(base + "/db-async?id=1&ms=3000")).build(),
                    HttpResponse.BodyHandlers.ofString());
            await().atMost(Duration.ofSeconds(10)).failFast("the request meant to hold the connection ended", holder::isDone)
                    .until(() -> figure(base, "dbAsyncActive") == 1);
            List<Integer> late = Http.concurrently(3, base + "/db-async?id=2&ms=0").stream().map(HttpResponse::statusCode).toList();
            assertEquals(List.of(503, 503, 503), late, "no connection came free within the pool's timeout");
            assertEquals(3, figure(base, "dbAsyncPending"), "every caller has its 503, and Vert.x still queues all three");
            assertEquals(200, holder.get(10, TimeUnit.SECONDS).statusCode());
            await().atMost(Duration.ofSeconds(5)).until(() -> figure(base, "dbAsyncPending") == 0);
            assertEquals(200, Http.get(base + "/db-async?id=3&ms=0").statusCode(), "their turns came and went; the pool serves");
        } finally {
            Stops.stop(app);
        }
    }

    private static int figure(String base, String name) {
        Map<?, ?> pool = (Map<?, ?>) Json.parse(Http.get(base + "/pool").body());
        return ((Number) pool.get(name)).intValue();
    }
}
