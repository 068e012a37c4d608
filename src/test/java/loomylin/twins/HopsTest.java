package loomylin.twins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;
import loomylin.server.backend.Backend;
import loomylin.server.jetty.PoolKind;
import loomylin.testing.BackendExtension;
import loomylin.testing.Http;
import loomylin.testing.Ports;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import loomylin.server.web.Protocol;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The three-hop chain: exactly three backend calls per request, in order, each built on the previous answer. */
class HopsTest {
    @RegisterExtension
    static final BackendExtension BACKEND = new BackendExtension(1, Backend.Fault.NONE);

    static Stream<Arguments> routes() {
        return Stream.of(Twin.values()).flatMap(t -> Stream.of(Arguments.of(t, "/hops-blocking"), Arguments.of(t, "/hops-async")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("routes")
    void threeCallsInOrderEachCarryingThePreviousAnswer(Twin twin, String route) {
        Javalin app = twin.start(PoolKind.loom(), BACKEND.url());
        try {
            synchronized (HopsTest.class) {
                BACKEND.get().clearCalls();
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + app.port() + route, "Bearer token-of-bob");
                assertEquals(200, r.statusCode(), r.body());
                String userId = "user-" + Integer.toHexString("token-of-bob".hashCode());
                assertEquals(List.of(
                        new Backend.Call("authenticate", "token-of-bob", null, null),
                        new Backend.Call("authorize", null, userId, null),
                        new Backend.Call("meetings", null, userId, Protocol.AUTHORITY)), BACKEND.get().calls());

                BACKEND.get().clearCalls();
                assertEquals(200, Http.get("http://127.0.0.1:" + app.port() + route).statusCode());
                assertEquals(Protocol.DEFAULT_TOKEN, BACKEND.get().calls().get(0).token(), "no Authorization header: the demo token");
                assertEquals(3, BACKEND.get().calls().size());
            }
        } finally {
            Stops.stop(app);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("routes")
    void backendDownIs502NamingTheBackend(Twin twin, String route) throws Exception {
        String url = "http://127.0.0.1:" + Ports.free();
        Javalin app = twin.start(PoolKind.loom(), url);
        try {
            HttpResponse<String> r = Http.get("http://127.0.0.1:" + app.port() + route);
            assertEquals(502, r.statusCode(), r.body());
            // The JDK's HttpClient (all of /hops-async) does not say why a connect failed; HttpURLConnection does.
            assertTrue(r.body().matches("backend \\Q" + url + "\\E is unreachable at authenticate \\((could not connect|connection refused)\\)\n"), r.body());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        } finally {
            Stops.stop(app);
        }
    }
}
