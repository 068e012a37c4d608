package loomylin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;
import loomylin.backend.Backend;
import loomylin.jetty.PoolKind;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every pool kind, in both twins, serves every route. */
class PoolKindsServeEveryRouteTest {
    @RegisterExtension
    static final BackendExtension BACKEND = new BackendExtension(1, Backend.Fault.NONE);

    static final List<String> KINDS = List.of("qtp:4", "qtp:32", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8");
    static final List<String> ROUTES = List.of("/computational?iterations=1000", "/wait-blocking?ms=5", "/wait-async?ms=5",
            "/hops-blocking?delay=1", "/hops-async?delay=1", "/pool");

    static Stream<Arguments> kinds() {
        return Stream.of(Twin.values()).flatMap(twin -> KINDS.stream().map(kind -> Arguments.of(twin, kind)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("kinds")
    void servesEveryRoute(Twin twin, String kind) {
        Javalin app = twin.start(PoolKind.parse(kind), BACKEND.url());
        try {
            for (String route : ROUTES) {
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + app.port() + route);
                assertEquals(200, r.statusCode(), twin + " " + kind + " " + route + ": " + r.body());
            }
            assertEquals(kind, Http.field(Http.get("http://127.0.0.1:" + app.port() + "/pool"), "kind"));
        } finally {
            app.stop();
        }
    }
}
