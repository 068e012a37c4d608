package loomylin.server.admin;

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
import loomylin.server.json.Json;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The race control over plain HTTP: bounds are a one-line 400, a second race while one runs a 409, stop
 * ends a race (and is a 409 when none runs), and a client that is not on loopback (unless --race-from allows
 * its address), a page on another site, a forged Host or a request with no Origin at all gets a one-line 403.
 * A request that passes the guard with broken bounds gets the bounds' 400: that shows it passed without
 * starting a race.
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
        AdminOptions options = AdminOptions.DEFAULTS.withHost("0.0.0.0").withPort(0).withReachHost("127.0.0.1")
                .withServer(new Watched(qtp4.port(), "qtp:4", qtp4.jettyServer().server()))
                .withServer(new Watched(loom.port(), "loom", loom.jettyServer().server()));
        admin = AdminServer.start(options);
    }

    @AfterAll
    static void stop() {
        admin.close();
        Stops.stopAll(java.util.List.of(qtp4, loom));
    }

    /** A form post as the live view's page sends it: with the page's Origin. */
    static HttpResponse<String> post(String host, String path, String form) throws IOException, InterruptedException {
        return post(admin, host, path, form, "Origin", "http://" + host + ":" + admin.port());
    }

    /** A form post to {@code server} with the given extra headers (name, value, ...). */
    static HttpResponse<String> post(AdminServer server, String host, String path, String form, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + server.port() + path))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (headers.length > 0) request.headers(headers);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Bounds the guard does not look at and the race refuses: a 400 means the request got past the guard. */
    static final String BROKEN_BOUNDS = "route=/wait-blocking&concurrency=0";

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
        assertOneLine(post(outside.get(), "/race", "route=/wait-blocking&concurrency=2&seconds=1"), 403, "races start only from this machine (loopback) or an address --race-from allows");
        assertOneLine(post(outside.get(), "/race/stop", ""), 403, "loopback");
        HttpResponse<String> metrics = CLIENT.send(HttpRequest.newBuilder(URI.create("http://" + outside.get() + ":" + admin.port() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode(), "reading is open to everyone");
    }

    @Test
    void aCrossSiteFormPostIsRefused() throws Exception {
        String before = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.port() + "/race")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertOneLine(post(admin, "127.0.0.1", "/race", "route=/wait-blocking&concurrency=2&seconds=1", "Origin", "http://evil.example"),
                403, "races start only from Loomylin's own page");
        assertOneLine(post(admin, "127.0.0.1", "/race", "route=/wait-blocking&concurrency=2&seconds=1", "Origin", "null"), 403, "own page");
        assertOneLine(post(admin, "127.0.0.1", "/race", "route=/wait-blocking&concurrency=2&seconds=1", "Sec-Fetch-Site", "cross-site"), 403, "own page");
        assertOneLine(post(admin, "127.0.0.1", "/race/stop", "", "Origin", "http://evil.example"), 403, "own page");
        String after = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.port() + "/race")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertEquals(before, after, "no race started or stopped");
    }

    @Test
    void aRequestWithNoOriginIsRefused() throws Exception {
        assertOneLine(post(admin, "127.0.0.1", "/race", "route=/wait-blocking&concurrency=2&seconds=1"), 403,
                "the request has no Origin (from a script: -H 'Origin: http://127.0.0.1:" + admin.port() + "')");
    }

    @Test
    void sameOriginFetchMetadataIsEnoughWithoutAnOrigin() throws Exception {
        assertOneLine(post(admin, "127.0.0.1", "/race", BROKEN_BOUNDS, "Sec-Fetch-Site", "same-origin"), 400, "concurrency");
    }

    @Test
    void aForgedHostIsRefusedForRacesAndLiveFigures() throws Exception {
        String forged = "evil.example:" + admin.port();
        String form = "route=/wait-blocking&concurrency=2&seconds=1";
        Raw race = raw("POST /race HTTP/1.1\r\nHost: " + forged + "\r\nOrigin: http://" + forged
                + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length() + "\r\nConnection: close\r\n\r\n" + form);
        assertEquals(403, race.status(), race.text());
        assertTrue(race.text().endsWith("\r\n\r\nHost '" + forged + "' is not one this admin port answers to: use localhost or an IP address, or name it in --admin-hosts\n"), race.text());
        Raw live = raw("GET /live HTTP/1.1\r\nHost: " + forged + "\r\nConnection: close\r\n\r\n");
        assertEquals(403, live.status(), live.text());
        assertEquals(200, raw("GET /live HTTP/1.1\r\nHost: localhost:" + admin.port() + "\r\nConnection: close\r\n\r\n").status());
        assertEquals(200, raw("GET /metrics HTTP/1.1\r\nHost: prometheus-scrapes-by-name:" + admin.port() + "\r\nConnection: close\r\n\r\n").status(),
                "/metrics answers any Host: Prometheus scrapes by service name");
    }

    @Test
    void raceFromLetsANamedAddressStartARaceFromThePage() throws Exception {
        Optional<String> outside = nonLoopbackAddress();
        assumeTrue(outside.isPresent(), "needs a non-loopback IPv4 address on this machine");
        AdminOptions options = AdminOptions.DEFAULTS.withHost("0.0.0.0").withPort(0).withReachHost("127.0.0.1").withRaceFrom(outside.get() + "/32")
                .withServer(new Watched(loom.port(), "loom", loom.jettyServer().server()));
        AdminServer allowing = AdminServer.start(options);
        try {
            String origin = "http://" + outside.get() + ":" + allowing.port();
            assertOneLine(post(allowing, outside.get(), "/race", BROKEN_BOUNDS, "Origin", origin), 400, "concurrency");
            assertOneLine(post(allowing, outside.get(), "/race", BROKEN_BOUNDS, "Origin", "http://evil.example"), 403, "own page");
        } finally {
            allowing.close();
        }
    }

    record Raw(int status, String text) {
    }

    /** One raw request on a fresh connection to the admin port: the only way to send a Host of one's own. */
    private static Raw raw(String request) throws IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", admin.port())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String text = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return new Raw(Integer.parseInt(text.split(" ", 3)[1]), text);
        }
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
