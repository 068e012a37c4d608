package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import loomylin.server.backend.Backend;
import loomylin.server.jetty.ServerOptions;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Ports;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The backend misbehaves in every way we can make it: too slow, down, not accepting, 500, malformed JSON,
 * connection closed mid-answer. /hops-blocking and /hops-async answer 502 or 504 within the hop timeout
 * plus slack, name the hop that failed, and the server answers the next request normally.
 * Both twins, on loom and qtp:4 with the default hop client, and on loom with every other {@code --hop-client}.
 */
@IntegrationTest
class BackendFaultTest {
    static final int HOP_TIMEOUT_MS = 500;
    static final Duration BOUND = Duration.ofMillis(HOP_TIMEOUT_MS + 3_000);

    static Backend healthy;
    static Backend errorEverywhere;
    static Backend malformedAtAuthorize;
    static Backend closeAtMeetings;
    static Backend closeEverywhere;
    static int downPort;
    static ServerSocket notAccepting;
    static final List<Socket> backlogFillers = new ArrayList<>();

    @BeforeAll
    static void backends() throws IOException {
        healthy = Backend.start("127.0.0.1", 0, 0, Backend.Fault.NONE);
        errorEverywhere = Backend.start("127.0.0.1", 0, 0, Backend.Fault.ERROR);
        malformedAtAuthorize = Backend.start("127.0.0.1", 0, 0, Backend.Fault.MALFORMED, "authorize");
        closeAtMeetings = Backend.start("127.0.0.1", 0, 0, Backend.Fault.CLOSE, "meetings");
        closeEverywhere = Backend.start("127.0.0.1", 0, 0, Backend.Fault.CLOSE);
        downPort = Ports.free();
        // A listener that never accepts, its queue (backlog 1 holds 2) filled: new connects get no SYN-ACK.
        notAccepting = new ServerSocket();
        notAccepting.bind(new InetSocketAddress("127.0.0.1", 0), 1);
        for (int i = 0; i < 3; i++) {
            Socket s = new Socket();
            try {
                s.connect(notAccepting.getLocalSocketAddress(), 300);
            } catch (IOException full) {
                // the queue is full: what we wanted
            }
            backlogFillers.add(s);
        }
    }

    @AfterAll
    static void stopBackends() throws IOException {
        for (Backend b : List.of(healthy, errorEverywhere, malformedAtAuthorize, closeAtMeetings, closeEverywhere)) b.close();
        for (Socket s : backlogFillers) s.close();
        notAccepting.close();
    }

    /** One way for the backend to fail: where the frontend points, what it adds to the query, what it must answer. */
    record Fault(String name, Supplier<String> backend, String query, int status, String text, String hop) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Fault> faults() {
        return List.of(
                new Fault("slow", () -> url(healthy.port()), "?delay=2000", 504, "did not answer within " + HOP_TIMEOUT_MS + " ms", "authenticate"),
                new Fault("down", () -> url(downPort), "", 502, "unreachable", "authenticate"),
                new Fault("not-accepting", () -> url(notAccepting.getLocalPort()), "", 504, "did not", "authenticate"), // accept (Linux) or answer
                new Fault("error", () -> url(errorEverywhere.port()), "", 502, "answered 500", "authenticate"),
                new Fault("malformed", () -> url(malformedAtAuthorize.port()), "", 502, "malformed JSON", "authorize"),
                new Fault("close", () -> url(closeAtMeetings.port()), "", 502, "failed", "meetings"));
    }

    static String url(int port) {
        return "http://127.0.0.1:" + port;
    }

    static Stream<Arguments> cases() {
        Stream<Arguments> defaultClient = Stream.of(Twin.values()).flatMap(t -> Stream.of("loom", "qtp:4")
                .flatMap(p -> faults().stream().map(f -> Arguments.of(t, p, f, "jdk"))));
        Stream<Arguments> otherClients = Stream.of(Twin.values()).flatMap(t -> Stream.of("url", "jetty")
                .flatMap(c -> faults().stream().map(f -> Arguments.of(t, "loom", f, c))));
        return Stream.concat(defaultClient, otherClients);
    }

    @ParameterizedTest(name = "{0} {1} {2} hop-client {3}")
    @MethodSource("cases")
    void answersWithTheFailedHopWithinBoundsAndStaysHealthy(Twin twin, String pool, Fault fault, String hopClient) throws Exception {
        ServerOptions options = Twin.options(pool).withHopClient(loomylin.server.jetty.HopClientKind.parse(hopClient))
                .withBackend(URI.create(fault.backend().get())).withHopTimeoutMs(HOP_TIMEOUT_MS)
                .withHopConnectTimeoutMs(HOP_TIMEOUT_MS);
        Javalin app = twin.start(options);
        try {
            int port = app.port();
            for (int round = 1; round <= 2; round++) { // the second round shows nothing got stuck
                for (String route : List.of("/hops-blocking", "/hops-async")) {
                    RawHttp.Answer a = RawHttp.get(port, route + fault.query(), BOUND.plusSeconds(5));
                    String what = twin + " " + pool + " " + fault + " " + hopClient + " " + route + " round " + round + ": " + a;
                    assertEquals(fault.status(), a.status(), what);
                    assertTrue(a.millis() < BOUND.toMillis(), "answered within " + BOUND.toMillis() + " ms: " + what);
                    String body = a.body().strip();
                    assertFalse(body.contains("\n"), "one line: " + what);
                    assertTrue(body.contains("at " + fault.hop()), "names the hop " + fault.hop() + ": " + what);
                    assertTrue(body.contains(fault.text()), "says '" + fault.text() + "': " + what);
                    assertFalse(body.contains("Exception\n") || body.contains("\tat "), "no stack trace: " + what);
                }
            }
            assertEquals(200, RawHttp.get(port, "/wait-blocking?ms=0").status(), "the next ordinary request works");
            String figures = RawHttp.awaitOnlyPoolInFlight(port, Duration.ofSeconds(3));
            assertTrue(figures.contains("\"inFlight\":1,"), "nothing left in flight: " + figures);
        } finally {
            Stops.stop(app);
        }
    }

    @ParameterizedTest(name = "{0} hop-client {1}")
    @MethodSource("twinsAndHopClients")
    void aHealthyBackendStillWorks(Twin twin, String hopClient) throws Exception {
        ServerOptions options = Twin.options("loom").withHopClient(loomylin.server.jetty.HopClientKind.parse(hopClient))
                .withBackend(URI.create(url(healthy.port())));
        Javalin app = twin.start(options);
        try {
            for (String route : List.of("/hops-blocking", "/hops-async")) {
                RawHttp.Answer a = RawHttp.get(app.port(), route);
                assertEquals(200, a.status(), a.toString());
                assertTrue(a.body().contains("\"meetings\""), a.toString());
            }
        } finally {
            Stops.stop(app);
        }
    }

    static Stream<Twin> twins() {
        return Stream.of(Twin.values());
    }

    static Stream<Arguments> twinsAndHopClients() {
        return twins().flatMap(t -> Stream.of(loomylin.server.jetty.HopClientKind.values()).map(c -> Arguments.of(t, c.label())));
    }

    /** Fault.CLOSE really promises a body, sends half, and drops the connection: no client mistakes it for a 200. */
    @Test
    void closeFaultCutsTheAnswerShort() throws Exception {
        try (Socket s = RawHttp.connect(closeEverywhere.port(), Duration.ofSeconds(5))) {
            s.getOutputStream().write(("GET /authenticate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) got.write(buffer, 0, n);
            } catch (java.net.SocketException reset) {
                // a reset ends it as well as a close
            }
            String wire = got.toString(StandardCharsets.ISO_8859_1);
            assertTrue(wire.startsWith("HTTP/1.1 200"), "the status line went out before the cut: " + wire);
            int headEnd = wire.indexOf("\r\n\r\n");
            java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(wire.substring(0, headEnd));
            assertTrue(length.find(), "a length was promised: " + wire);
            int promised = Integer.parseInt(length.group(1));
            int sent = wire.length() - headEnd - 4;
            assertTrue(sent < promised, "cut short: " + sent + " of " + promised + " bytes: " + wire);
        }
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url(closeEverywhere.port()) + "/authenticate"))
                    .header("Authorization", "Bearer t").timeout(Duration.ofSeconds(5)).build();
            IOException e = assertThrows(IOException.class, () -> client.send(request, HttpResponse.BodyHandlers.ofString()));
            assertFalse(e instanceof java.net.http.HttpTimeoutException, "a cut, not a timeout: " + e);
        }
    }
}
