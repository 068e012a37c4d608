package loomylin.twins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;
import loomylin.server.backend.Backend;
import loomylin.testing.BackendExtension;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.TestDatabase;
import loomylin.testing.Twin;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every pool kind, in both twins, serves every route. */
class PoolKindsServeEveryRouteTest {
    @RegisterExtension
    static final BackendExtension BACKEND = new BackendExtension(1, Backend.Fault.NONE);

    static final List<String> KINDS = List.of("qtp:4", "qtp:32", "qtp:8-200", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8", "qtp-vtp:8:200");
    static final List<String> ROUTES = List.of("/computational?iterations=1000", "/wait-blocking?ms=5", "/wait-async?ms=5",
            "/wait-locked?ms=5&lock=synchronized", "/wait-locked?ms=5&lock=reentrant", "/wait-locked?ms=5&lock=wait", "/wait-locked?ms=5&lock=synchronized&on=platform", "/hops-blocking?delay=1", "/hops-async?delay=1", "/mixed?cpu=100&sleep=1&file=1000", "/mixed-async?cpu=100&sleep=1&file=1000", "/db-blocking?ms=1", "/db-async?ms=1", "/pool");

    /** The virtual-thread scheduler's figures, which /pool reports whatever the pool (JDK 24+). */
    static final List<String> SCHEDULER = List.of("vtParallelism", "vtPoolSize", "vtMounted", "vtQueued");

    static Stream<Arguments> kinds() {
        return Stream.of(Twin.values()).flatMap(twin -> KINDS.stream().map(kind -> Arguments.of(twin, kind)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("kinds")
    void servesEveryRoute(Twin twin, String kind) {
        Javalin app = twin.start(Twin.options(kind).withBackend(java.net.URI.create(BACKEND.url())).withDb(TestDatabase.options()));
        try {
            for (String route : ROUTES) {
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + app.port() + route);
                assertEquals(200, r.statusCode(), twin + " " + kind + " " + route + ": " + r.body());
            }
            HttpResponse<String> pool = Http.get("http://127.0.0.1:" + app.port() + "/pool");
            assertEquals(kind, Http.field(pool, "kind"));
            if (Runtime.version().feature() < 24) {
                // no VirtualThreadSchedulerMXBean: each figure says it is not known, never a made-up -1
                for (String key : SCHEDULER) assertEquals("n/a", Http.field(pool, key), twin + " " + kind + " " + key + ": " + pool.body());
                return;
            }
            for (String key : SCHEDULER) assertTrue(Http.number(pool, key) >= 0, twin + " " + kind + " " + key + ": " + pool.body());
            assertTrue(Http.number(pool, "vtParallelism") >= 1, pool.body());
            assertTrue(Http.number(pool, "vtMounted") >= 1 || !kind.contains("vtp") && !kind.equals("loom"),
                    "/pool itself runs on a virtual thread on " + kind + ": " + pool.body());
        } finally {
            Stops.stop(app);
        }
    }
}
