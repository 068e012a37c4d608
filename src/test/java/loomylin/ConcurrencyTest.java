package loomylin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.util.stream.Stream;
import loomylin.jetty.PoolKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How many requests a pool really runs at once, read from /pool's high-water mark after 40 concurrent
 * 300 ms sleeps: all 40 on the virtual-thread pools, never more than the pool's threads on a fixed QTP.
 */
class ConcurrencyTest {
    static final int CLIENTS = 40;

    static Stream<Arguments> pools() {
        return Stream.of(Twin.values()).flatMap(twin -> Stream.of(
                Arguments.of(twin, "loom", CLIENTS, CLIENTS),
                Arguments.of(twin, "jetty-vtp", CLIENTS, CLIENTS),
                Arguments.of(twin, "qtp-vt:8", CLIENTS, CLIENTS),
                Arguments.of(twin, "qtp:4", 1, 4),
                Arguments.of(twin, "qtp:32", 16, 32)));
    }

    @ParameterizedTest(name = "{0} {1}: max in flight in [{2}, {3}]")
    @MethodSource("pools")
    void highWaterMarkOf40ConcurrentSleeps(Twin twin, String kind, int atLeast, int atMost) throws Exception {
        Javalin app = twin.start(PoolKind.parse(kind), "http://127.0.0.1:1");
        try {
            String base = "http://127.0.0.1:" + app.port();
            Http.get(base + "/pool?reset=true");
            for (HttpResponse<String> r : Http.concurrently(CLIENTS, base + "/wait-blocking?ms=300"))
                assertEquals(200, r.statusCode());
            HttpResponse<String> pool = Http.get(base + "/pool");
            long max = Http.number(pool, "maxInFlight");
            assertTrue(max >= atLeast && max <= atMost, twin + " " + kind + ": maxInFlight " + max + " not in [" + atLeast + ", " + atMost + "]: " + pool.body());
            if (kind.equals("qtp:4")) {
                // A fixed QTP lends threads to Jetty's acceptor and selector first; only the rest can run requests
                // (and one of those may sit reserved for Jetty's execute-produce-consume hand-off).
                long unleased = Http.number(pool, "maxThreads") - Http.number(pool, "leasedThreads");
                assertEquals(2, unleased, "one acceptor and one selector lease 2 of qtp:4's threads: " + pool.body());
                assertTrue(max <= unleased, "requests ran only on unleased threads: " + pool.body());
            }
        } finally {
            app.stop();
        }
    }
}
