package loomylin.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.util.stream.Stream;
import loomylin.server.jetty.PoolKind;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * /wait-async answers are written on the server's own request threads, read from /pool's async figures
 * after 40 concurrent 200 ms waits: virtual threads on the pools that have them, the pool's own platform
 * threads (named after the pool) on a QueuedThreadPool; never one timer thread for every server. How many of the
 * pool's threads share the 40 answers is the OS scheduler's choice (on a loaded machine one thread sometimes took
 * all 40), so the test does not ask for more than one.
 */
class WaitAsyncWritersTest {
    static final int CLIENTS = 40;

    static Stream<Arguments> pools() {
        return Stream.of(Twin.values()).flatMap(twin -> Stream.of(
                Arguments.of(twin, "loom", true),
                Arguments.of(twin, "jetty-vtp", true),
                Arguments.of(twin, "qtp-vt:8", true),
                Arguments.of(twin, "qtp:32", false),
                Arguments.of(twin, "qtp:4", false)));
    }

    @ParameterizedTest(name = "{0} {1}: answers on virtual threads: {2}")
    @MethodSource("pools")
    void answersRunOnTheServersOwnThreads(Twin twin, String kind, boolean virtual) throws Exception {
        Javalin app = twin.start(PoolKind.parse(kind), "http://127.0.0.1:1");
        try {
            String base = "http://127.0.0.1:" + app.port();
            for (HttpResponse<String> r : Http.concurrently(CLIENTS, base + "/wait-async?ms=200"))
                assertEquals(200, r.statusCode());
            HttpResponse<String> pool = Http.get(base + "/pool");
            assertEquals(CLIENTS, Http.number(pool, "asyncAnswers"), pool.body());
            String last = (String) Http.field(pool, "asyncLastWriter");
            if (virtual) {
                assertEquals(CLIENTS, Http.number(pool, "asyncOnVirtual"), pool.body());
                assertTrue(last.startsWith("virtual "), pool.body());
            } else {
                assertEquals(0, Http.number(pool, "asyncOnVirtual"), pool.body());
                // The servers name a QueuedThreadPool "qtp-PORT" ("qtp-any-N" on port 0) and Jetty its threads "qtp-PORT-N": the writer is one of them.
                assertTrue(last.matches("platform qtp-(\\d+|any-\\d+)-\\d+"), pool.body());
                long writers = Http.number(pool, "asyncPlatformThreads");
                assertTrue(writers >= 1 && writers <= PoolKind.parse(kind).size(), pool.body());
            }
        } finally {
            Stops.stop(app);
        }
    }
}
