package loomylin.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.javalin.Javalin;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import loomylin.json.Json;
import loomylin.testing.Twin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The race control over plain HTTP: bounds are a one-line 400, a second race while one runs a 409, stop
 * ends a race (and is a 409 when none runs), and a client that is not on loopback gets a one-line 403.
 */
class RaceControlTest {
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    static Javalin qtp4;
    static Javalin loom;
    static AdminServer admin;

    @BeforeAll
    static void start() {
        qtp4 = Twin.JAVA.start(Twin.options("qtp:4"));
        loom = Twin.JAVA.start(Twin.options("loom"));
        AdminOptions options = new AdminOptions();
        options.host = "0.0.0.0"; // so that a non-loopback address reaches it too
        options.port = 0;
        options.reachHost = "127.0.0.1";
        options.servers.add(new Watched(qtp4.port(), "qtp:4", qtp4.jettyServer().server()));
        options.servers.add(new Watched(loom.port(), "loom", loom.jettyServer().server()));
        admin = AdminServer.start(options);
    }

    @AfterAll
    static void stop() {
        admin.close();
        qtp4.stop();
        loom.stop();
    }

    static HttpResponse<String> post(String host, String path, String form) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + admin.port() + path))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }

    static void assertOneLine(HttpResponse<String> r, int status, String containing) {
        assertEquals(status, r.statusCode(), r.body());
        assertTrue(r.body().endsWith("\n") && r.body().indexOf('\n') == r.body().length() - 1, "one line: " + r.body());
        assertTrue(r.body().contains(containing), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers().toString());
    }

    @Test
    void boundsAreAOneLine400() throws Exception {
        assertOneLine(post("127.0.0.1", "/race", "route=/wait-blocking&concurrency=1001"), 400, "concurrency must be a whole number from 1 to 1000");
        assertOneLine(post("127.0.0.1", "/race", "route=/wait-blocking&concurrency=0"), 400, "concurrency");
        assertOneLine(post("127.0.0.1", "/race", "route=/wait-blocking&seconds=61"), 400, "seconds must be a whole number from 1 to 60");
        assertOneLine(post("127.0.0.1", "/race", "route=/wait-blocking&value=-1"), 400, "value (ms)");
        assertOneLine(post("127.0.0.1", "/race", "route=/computational&value=99999999999"), 400, "value (iterations)");
        assertOneLine(post("127.0.0.1", "/race", "route=/pool"), 400, "route must be one of");
        assertOneLine(post("127.0.0.1", "/race", ""), 400, "route must be one of");
    }

    @Test
    void oneRaceAtATimeAndStopEndsIt() throws Exception {
        HttpResponse<String> first = post("127.0.0.1", "/race", "route=/wait-blocking&value=50&concurrency=4&seconds=30");
        assertEquals(201, first.statusCode(), first.body());
        assertEquals("running", ((Map<?, ?>) Json.parse(first.body())).get("state"));
        assertOneLine(post("127.0.0.1", "/race", "route=/wait-async&concurrency=2&seconds=5"), 409, "a race is already running (/wait-blocking?ms=50");

        await().atMost(Duration.ofSeconds(20)).until(() -> requests(race()) > 0);
        HttpResponse<String> stopped = post("127.0.0.1", "/race/stop", "");
        assertEquals(200, stopped.statusCode(), stopped.body());
        Map<?, ?> summary = race();
        assertEquals("stopped", summary.get("state"));
        List<?> ports = (List<?>) summary.get("ports");
        assertEquals(2, ports.size(), "a summary per port");
        for (Object p : ports) {
            Map<?, ?> port = (Map<?, ?>) p;
            for (String field : List.of("port", "pool", "requests", "rps", "p50Ms", "p99Ms", "errors")) assertTrue(port.containsKey(field), field + " in " + port);
            assertEquals(0L, ((Number) port.get("errors")).longValue(), "no errors: " + port);
        }
        assertOneLine(post("127.0.0.1", "/race/stop", ""), 409, "no race is running");

        HttpResponse<String> next = post("127.0.0.1", "/race", "route=/wait-async&value=10&concurrency=2&seconds=1");
        assertEquals(201, next.statusCode(), "a new race once the last ended: " + next.body());
        await().atMost(Duration.ofSeconds(20)).until(() -> "finished".equals(race().get("state")));
    }

    @Test
    void onlyLoopbackMayStartOrStopARace() throws Exception {
        Optional<String> outside = nonLoopbackAddress();
        assumeTrue(outside.isPresent(), "needs a non-loopback IPv4 address on this machine");
        assertOneLine(post(outside.get(), "/race", "route=/wait-blocking&concurrency=2&seconds=1"), 403, "races start only from this machine (loopback)");
        assertOneLine(post(outside.get(), "/race/stop", ""), 403, "loopback");
        HttpResponse<String> metrics = CLIENT.send(HttpRequest.newBuilder(URI.create("http://" + outside.get() + ":" + admin.port() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode(), "reading is open to everyone");
    }

    private static Map<?, ?> race() throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.port() + "/race")).build(),
                HttpResponse.BodyHandlers.ofString());
        return (Map<?, ?>) Json.parse(r.body());
    }

    private static long requests(Map<?, ?> race) {
        return ((List<?>) race.get("ports")).stream().mapToLong(p -> ((Number) ((Map<?, ?>) p).get("requests")).longValue()).sum();
    }

    private static Optional<String> nonLoopbackAddress() throws SocketException {
        for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
            if (!nic.isUp() || nic.isLoopback()) continue;
            for (InetAddress a : nic.inetAddresses().toList()) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) return Optional.of(a.getHostAddress());
            }
        }
        return Optional.empty();
    }
}
