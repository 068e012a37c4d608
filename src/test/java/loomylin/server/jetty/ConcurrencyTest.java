package loomylin.server.jetty;

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
import java.util.stream.Stream;
import loomylin.server.jetty.PoolKind;
import loomylin.testing.Http;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How many requests a pool really runs at once, from /pool's in-flight count and high-water mark under 40
 * concurrent sleeps. On the virtual-thread pools the test waits until all 40 sleep at once (each sleep
 * lasts 3 s, so that starting 40 requests may take seconds on a loaded machine); a fixed QTP never runs more
 * than its unleased threads, whatever the timing, and qtp:32 runs more at once than qtp:4 ever can.
 */
@IntegrationTest
class ConcurrencyTest {
    static final int CLIENTS = 40;
    /** Long enough for 40 requests to overlap on a loaded machine; qtp:4 gets short ones, 40 of which it works through 2 at a time. */
    static final int SLEEP_MS = 3_000;
    static final int QTP4_SLEEP_MS = 300;

    static Stream<Arguments> pools() {
        return Stream.of(Twin.values()).flatMap(twin -> Stream.of(
                Arguments.of(twin, "loom", true, CLIENTS),
                Arguments.of(twin, "jetty-vtp", true, CLIENTS),
                Arguments.of(twin, "qtp-vt:8", true, CLIENTS),
                Arguments.of(twin, "qtp:4", false, 2),
                Arguments.of(twin, "qtp:32", false, 30)));
    }

    @ParameterizedTest(name = "{0} {1}: at most {3} sleep at once")
    @MethodSource("pools")
    void highWaterMarkOf40ConcurrentSleeps(Twin twin, String kind, boolean virtual, int atMost) throws Exception {
        Javalin app = twin.start(PoolKind.parse(kind), "http://127.0.0.1:1");
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            String base = "http://127.0.0.1:" + app.port();
            Http.get(base + "/pool?reset=true");
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) answers.add(clients.submit(() -> Http.get(base + "/wait-blocking?ms=" + (kind.equals("qtp:4") ? QTP4_SLEEP_MS : SLEEP_MS))));
            if (virtual) {
                // every sleep at once, plus this /pool request itself; a fixed QTP has no thread free to answer /pool now
                await("all " + CLIENTS + " sleeping at once").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                        .until(() -> Http.number(Http.get(base + "/pool"), "inFlight") == CLIENTS + 1);
            }
            for (Future<HttpResponse<String>> answer : answers) assertEquals(200, answer.get().statusCode());

            HttpResponse<String> pool = Http.get(base + "/pool");
            long max = Http.number(pool, "maxInFlight") - (virtual ? 1 : 0); // the /pool request counted at the mark
            String what = twin + " " + kind + ": maxInFlight " + max + ": " + pool.body();
            assertTrue(max <= atMost, what);
            if (virtual) assertEquals(CLIENTS, max, what);
            if (kind.equals("qtp:4")) {
                // A fixed QTP lends threads to Jetty's acceptor and selector first; only the rest can run requests
                // (and one of those may sit reserved for Jetty's execute-produce-consume hand-off).
                long unleased = Http.number(pool, "maxThreads") - Http.number(pool, "leasedThreads");
                assertEquals(2, unleased, "one acceptor and one selector lease 2 of qtp:4's threads: " + pool.body());
                assertTrue(max >= 1, what);
            }
            if (kind.equals("qtp:32")) assertTrue(max > 2, "more at once than qtp:4 can ever run: " + what);
        } finally {
            Stops.stop(app);
        }
    }
}
