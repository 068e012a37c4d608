package loomylin.lab.bare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The bare servers of the floor: 200 "ok" for any path on every pool kind, from a Jetty Handler or a Javalin route; a port in use as one line. */
class BareJettyTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"qtp:4", "qtp:32", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8"})
    void everyPoolAnswersOkForAnyPath(String pool) throws Exception {
        Server server = BareJetty.start(PoolKind.parse(pool), BareJetty.Door.jetty("127.0.0.1", 0, 128));
        try {
            int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
            for (String path : new String[] {"/", "/wait-blocking?ms=0", "/anything/else"}) {
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + port + path);
                assertEquals(200, r.statusCode(), path);
                assertEquals("ok", r.body(), path);
            }
        } finally {
            Stops.stop("bare " + pool, server, server::stop);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"qtp:32", "loom"})
    void javalinAnswersTheSameForAnyPath(String pool) throws Exception {
        Server server = BareJavalin.start(PoolKind.parse(pool), BareJetty.Door.jetty("127.0.0.1", 0, 128));
        try {
            int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
            for (String path : new String[] {"/", "/bare-javalin", "/any/deeper/path"}) {
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + port + path);
                assertEquals(200, r.statusCode(), path);
                assertEquals("ok", r.body(), path);
            }
        } finally {
            Stops.stop("bare " + pool, server, server::stop);
        }
    }

    /** The floor's second layer: Loomylin's fenced connector and HTTP configuration under the bare Handler, then under Javalin. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"qtp:32", "loom", "qtp-vtp:8:200"})
    void loomylinsConnectorAnswersTheSameWithoutAVersionHeader(String pool) throws Exception {
        for (boolean javalin : new boolean[] {false, true}) {
            BareJetty.Door door = new BareJetty.Door("127.0.0.1", 0, 128, true, 0);
            Server server = javalin ? BareJavalin.start(PoolKind.parse(pool), door) : BareJetty.start(PoolKind.parse(pool), door);
            try {
                assertEquals("loomylin.server.jetty.internal", server.getConnectors()[0].getClass().getPackageName(), "the fenced connector");
                int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + port + "/wait-blocking?ms=0");
                assertEquals(200, r.statusCode());
                assertEquals("ok", r.body());
                assertTrue(r.headers().firstValue("server").isEmpty(), "no version header: " + r.headers().map());
            } finally {
                Stops.stop("bare " + pool, server, server::stop);
            }
        }
    }

    @Test
    void anUnknownConnectorIsAUsageError() {
        UsageError e = assertThrows(UsageError.class, () -> BareJetty.main(new String[] {"--connector", "tomcat"}));
        assertEquals("--connector must be jetty or loomylin, got 'tomcat'", e.getMessage());
    }

    @Test
    void anUnknownFrameworkIsAUsageError() {
        UsageError e = assertThrows(UsageError.class, () -> BareJetty.main(new String[] {"--framework", "spring"}));
        assertEquals("--framework must be none or javalin, got 'spring'", e.getMessage());
    }

    @Test
    void aPortInUseIsOneLineNamingIt() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            StartupFailure e = assertThrows(StartupFailure.class, () -> BareJetty.start(PoolKind.loom(), BareJetty.Door.jetty("127.0.0.1", taken.getLocalPort(), 128)));
            assertEquals("bare-jetty on 127.0.0.1:" + taken.getLocalPort() + ": port already in use", e.getMessage());
        }
    }
}
