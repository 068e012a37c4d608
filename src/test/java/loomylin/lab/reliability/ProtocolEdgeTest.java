package loomylin.lab.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import loomylin.server.admin.AdminOptions;
import loomylin.server.admin.AdminServer;
import loomylin.server.admin.Watched;
import loomylin.server.backend.Backend;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.ServerOptions;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What Jetty does for every server, checked over raw sockets: 414 and 431 for oversized request lines and
 * headers, idle connections dropped after --idle-timeout-ms, headers drip-fed past --header-timeout-ms cut
 * with a 408 on every pool kind of both twins and on the admin port, a request body slower than
 * --min-body-rate cut, HTTP/1.0, pipelining and Connection: close, and no version string in any response
 * header. The settings are shared (JettySetup), so one twin is enough for the rest; the twins' own answers are
 * covered by HostileInputTest.
 */
@Isolated("its server's idle timeout is 500 ms: a CPU stall from other test classes would close its connections")
class ProtocolEdgeTest {
    static final int IDLE_MS = 500;
    static Javalin app;
    static Javalin limited;
    static Backend backend;
    static int port;

    @BeforeAll
    static void start() {
        ServerOptions o = Twin.options("loom").withIdleTimeoutMs(IDLE_MS);
        app = Twin.JAVA.start(o);
        port = app.port();
        ServerOptions l = Twin.options("loom").withMaxInFlight(1).withMaxInFlightWaitMs(0);
        limited = Twin.KOTLIN.start(l);
        backend = Backend.start("127.0.0.1", 0, 0, Backend.Fault.NONE);
    }

    @AfterAll
    static void stop() {
        Stops.stopAll(List.of(app, limited, backend));
    }

    @Test
    void oversizedRequestLineGets414() throws Exception {
        try (Socket s = RawHttp.connect(port, Duration.ofSeconds(10))) {
            send(s, "GET /wait-blocking?ms=" + "1".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Answer a = RawHttp.read(s.getInputStream(), System.nanoTime());
            assertEquals(414, a.status(), a.toString());
            assertOneLine(a);
            assertTrue(RawHttp.closedByServer(s, Duration.ofSeconds(5)), "the connection is closed after a 414");
        }
    }

    @Test
    void oversizedHeadersGet431() throws Exception {
        List<String> requests = List.of(
                "GET /pool HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n",
                "GET /pool HTTP/1.1\r\nHost: x\r\n" + "X-Many: abcdefghijklmnopqrstuvwxyz0123456789\r\n".repeat(500) + "\r\n");
        for (String request : requests) {
            try (Socket s = RawHttp.connect(port, Duration.ofSeconds(10))) {
                send(s, request);
                RawHttp.Answer a = RawHttp.read(s.getInputStream(), System.nanoTime());
                assertEquals(431, a.status(), a.toString());
                assertOneLine(a);
                assertTrue(RawHttp.closedByServer(s, Duration.ofSeconds(5)), "closed after a 431");
            }
        }
        assertEquals(200, RawHttp.get(port, "/pool").status(), "and the server carries on");
    }

    @Test
    void aSilentConnectionIsDroppedAfterTheIdleTimeout() throws Exception {
        try (Socket silent = RawHttp.connect(port, Duration.ofSeconds(10));
             Socket half = RawHttp.connect(port, Duration.ofSeconds(10))) {
            long start = System.nanoTime();
            send(half, "GET /pool HTTP/1.1\r\nHost: x\r\n"); // headers never finished
            assertEquals(200, RawHttp.get(port, "/wait-blocking?ms=0").status(), "others are served meanwhile");
            assertTrue(RawHttp.closedByServer(silent, Duration.ofMillis(IDLE_MS + 3_000)), "silent connection closed");
            long silentMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(silentMs >= IDLE_MS - 100, "not before the idle timeout: " + silentMs + " ms");
            assertTrue(RawHttp.closedByServer(half, Duration.ofMillis(IDLE_MS + 3_000)), "half-sent request's connection closed");
        }
    }

    /**
     * On qtp:4 with a 500 ms idle timeout, requests queued behind busy threads for longer than that still
     * get their answers: a connection whose request waits for a thread is not idle. A silent connection
     * on the same busy server is still dropped.
     */
    @IntegrationTest
    @Test
    void aRequestQueuedLongerThanTheIdleTimeoutIsStillAnswered() throws Exception {
        ServerOptions o = Twin.options("qtp:4").withIdleTimeoutMs(IDLE_MS);
        Javalin small = Twin.JAVA.start(o);
        try (var clients = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
             Socket silent = RawHttp.connect(small.port(), Duration.ofSeconds(10))) {
            List<java.util.concurrent.Future<RawHttp.Outcome>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                calls.add(clients.submit(() -> RawHttp.attempt(small.port(),
                        "GET /wait-blocking?ms=400 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", Duration.ofSeconds(30))));
            }
            List<String> kinds = new ArrayList<>();
            long slowest = 0;
            for (var f : calls) {
                RawHttp.Outcome outcome = f.get();
                kinds.add(outcome.kind());
                if (outcome.complete()) slowest = Math.max(slowest, outcome.answer().millis());
            }
            assertEquals(java.util.Collections.nCopies(12, "200"), kinds, "every queued request answered");
            assertTrue(slowest > 2 * IDLE_MS, "some waited well past the idle timeout (slowest " + slowest + " ms)");
            assertTrue(RawHttp.closedByServer(silent, Duration.ofSeconds(5)), "the silent connection was dropped");
        } finally {
            Stops.stop(small);
        }
    }

    @Test
    void http10WithoutKeepAliveGetsItsAnswerThenTheClose() throws Exception {
        try (Socket s = RawHttp.connect(port, Duration.ofSeconds(10))) {
            send(s, "GET /wait-async?ms=0 HTTP/1.0\r\n\r\n");
            RawHttp.Answer a = RawHttp.read(s.getInputStream(), System.nanoTime());
            assertEquals(200, a.status(), a.toString());
            assertEquals("Hello, World", a.body());
            assertTrue(RawHttp.closedByServer(s, Duration.ofSeconds(3)), "HTTP/1.0 without keep-alive is closed after one answer");
        }
    }

    @Test
    void http11PipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (Socket s = RawHttp.connect(port, Duration.ofSeconds(10))) {
            send(s, "GET /wait-blocking?ms=50 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /wait-async?ms=0 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /computational?iterations=abc HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /computational?iterations=10 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            InputStream in = s.getInputStream();
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 5; i++) statuses.add(RawHttp.read(in, System.nanoTime()).status());
            assertEquals(List.of(200, 200, 404, 400, 200), statuses);
            assertTrue(RawHttp.closedByServer(s, Duration.ofSeconds(3)), "closed after the request that asked for it");
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        try (Socket s = RawHttp.connect(port, Duration.ofSeconds(10))) {
            send(s, "GET /pool HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            RawHttp.Answer a = RawHttp.read(s.getInputStream(), System.nanoTime());
            assertEquals(200, a.status());
            assertEquals("close", a.header("Connection"));
            assertTrue(RawHttp.closedByServer(s, Duration.ofSeconds(3)));
        }
        try (Socket s = RawHttp.connect(port, Duration.ofSeconds(10))) { // and keep-alive keeps it open
            send(s, "GET /pool HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, RawHttp.read(s.getInputStream(), System.nanoTime()).status());
            send(s, "GET /pool HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, RawHttp.read(s.getInputStream(), System.nanoTime()).status());
        }
    }

    @Test
    void noResponseNamesTheServerOrItsVersion() throws Exception {
        List<RawHttp.Answer> answers = new ArrayList<>();
        answers.add(RawHttp.get(port, "/pool"));
        answers.add(RawHttp.get(port, "/wait-async?ms=0"));
        answers.add(RawHttp.get(port, "/nope"));
        answers.add(RawHttp.get(port, "/wait-blocking?ms=-1"));
        answers.add(RawHttp.get(port, "/wait-blocking?ms=%ZZ"));
        answers.add(RawHttp.exchange(port, "GET /" + "x".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", Duration.ofSeconds(10)));
        answers.add(RawHttp.exchange(port, "GARBAGE\r\n\r\n", Duration.ofSeconds(10)));
        answers.add(RawHttp.get(backend.port(), "/authorize?userId=u"));
        answers.add(RawHttp.get(backend.port(), "/authenticate"));
        // the in-flight limit's 503: one slow request holds the only slot, the next is refused at once
        Thread holder = Thread.ofVirtual().start(() -> {
            try {
                RawHttp.get(limited.port(), "/wait-blocking?ms=3000");
            } catch (Exception ignored) {
                // only there to hold the slot
            }
        });
        AtomicReference<RawHttp.Answer> answer = new AtomicReference<>();
        await("the limit refuses a request while the slot is held").atMost(Duration.ofMillis(2_500)).pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    answer.set(RawHttp.get(limited.port(), "/wait-async?ms=0"));
                    return answer.get().status() == 503;
                });
        RawHttp.Answer refused = answer.get();
        holder.join();
        assertEquals("1", refused.header("Retry-After"));
        assertOneLine(refused);
        answers.add(refused);
        for (RawHttp.Answer a : answers) {
            assertNull(a.header("Server"), "no Server header: " + a);
            assertNull(a.header("X-Powered-By"), "no X-Powered-By: " + a);
        }
        assertEquals(List.of(200, 200, 404, 400, 400, 414, 400, 200, 401, 503), answers.stream().map(RawHttp.Answer::status).toList());
    }

    static final int HEADER_DEADLINE_MS = 1_000;
    /** A header line every this often: each far inside the idle timeout, so only the deadline can end it. */
    static final int DRIP_MS = 150;

    static List<Arguments> twinsAndPools() {
        List<Arguments> cases = new ArrayList<>();
        for (Twin twin : Twin.values()) {
            for (String pool : List.of("qtp:4", "qtp:32", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8", "qtp-vtp:8:200")) cases.add(Arguments.of(twin, pool));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} twin, {1}")
    @MethodSource("twinsAndPools")
    void headersDripFedPastTheDeadlineGet408AndTheClose(Twin twin, String pool) throws Exception {
        ServerOptions o = Twin.options(pool).withHeaderTimeoutMs(HEADER_DEADLINE_MS);
        Javalin server = twin.start(o);
        try {
            assertCutAtTheDeadline(server.port());
            assertEquals(200, RawHttp.get(server.port(), "/pool").status(), "and the server carries on");
        } finally {
            Stops.stop(server);
        }
    }

    @Test
    void theAdminPortCutsDripFedHeadersAtTheDeadlineToo() throws Exception {
        AdminServer admin = adminPort(app);
        try {
            assertCutAtTheDeadline(admin.port());
            assertEquals(200, RawHttp.get(admin.port(), "/metrics").status(), "and the admin port carries on");
        } finally {
            admin.close();
        }
    }

    @Test
    void aKeepAliveConnectionGetsAFreshDeadlineForEachRequest() throws Exception {
        ServerOptions o = Twin.options("loom").withHeaderTimeoutMs(HEADER_DEADLINE_MS);
        Javalin server = Twin.JAVA.start(o);
        try (Socket s = RawHttp.connect(server.port(), Duration.ofSeconds(10))) {
            // requests on one connection for longer than the deadline in all: each is complete at once
            long start = System.nanoTime();
            int answered = 0;
            while ((System.nanoTime() - start) / 1_000_000 < 2L * HEADER_DEADLINE_MS) {
                send(s, "GET /wait-blocking?ms=100 HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, RawHttp.read(s.getInputStream(), System.nanoTime()).status());
                answered++;
            }
            assertTrue(answered > 2, answered + " requests");
        } finally {
            Stops.stop(server);
        }
    }

    /**
     * A request body sent a byte at a time to the one route that reads a body (the admin port's race form)
     * fails once it is read slower than --min-body-rate: a one-line 408, and the connection closed.
     */
    @Test
    void aBodySlowerThanTheMinimumRateIsCut() throws Exception {
        AdminServer admin = adminPort(app);
        try (Socket s = RawHttp.connect(admin.port(), Duration.ofSeconds(30))) {
            String host = "127.0.0.1:" + admin.port();
            send(s, "POST /race HTTP/1.1\r\nHost: " + host + "\r\nOrigin: http://" + host
                    + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nroute=");
            s.setSoTimeout(DRIP_MS);
            RawHttp.Answer answer = null;
            for (int i = 0; i < 90 && answer == null; i++) { // at most 90 bytes: the body is never complete
                send(s, "w");
                try {
                    int first = s.getInputStream().read();
                    assertTrue(first >= 0, "an answer before the close");
                    java.io.PushbackInputStream in = new java.io.PushbackInputStream(s.getInputStream(), 1);
                    in.unread(first);
                    s.setSoTimeout(10_000);
                    answer = RawHttp.read(in, System.nanoTime());
                } catch (java.net.SocketTimeoutException stillReading) {
                    // the next byte
                }
            }
            assertTrue(answer != null, "the slow body was cut before it was complete");
            assertEquals(408, answer.status(), answer.toString());
            assertOneLine(answer);
            assertTrue(answer.body().contains("the request body arrived slower than the minimum rate"), answer.toString());
            assertTrue(RawHttp.closedByServer(s, Duration.ofSeconds(5)), "and the connection closed");
        } finally {
            admin.close();
        }
    }

    /** An admin port watching {@code server}, with the test's header deadline and the default body rate. */
    private static AdminServer adminPort(Javalin server) {
        AdminOptions options = AdminOptions.loopback().withHeaderTimeoutMs(HEADER_DEADLINE_MS)
                .withServer(new Watched(server.port(), "loom", server.jettyServer().server()));
        return AdminServer.start(options);
    }

    /** Drip-fed headers: a one-line 408 and the close, not before the deadline and within a second after it. */
    private static void assertCutAtTheDeadline(int port) throws Exception {
        RawHttp.Dripped dripped = RawHttp.dripHeaders(port, "GET /pool HTTP/1.1\r\nHost: x\r\n", DRIP_MS, Duration.ofSeconds(20));
        assertEquals(408, dripped.status(), "after " + dripped.millis() + " ms and " + dripped.linesSent() + " header lines: " + dripped.answer());
        assertOneLine(dripped.answer());
        assertTrue(dripped.answer().body().contains("request headers not complete within " + HEADER_DEADLINE_MS + " ms"), dripped.answer().toString());
        assertEquals("close", dripped.answer().header("Connection"));
        assertTrue(dripped.millis() >= HEADER_DEADLINE_MS, "not before the deadline: " + dripped.millis() + " ms");
        assertTrue(dripped.millis() <= HEADER_DEADLINE_MS + 1_000, "within a second of the deadline: " + dripped.millis() + " ms");
    }

    private static void assertOneLine(RawHttp.Answer a) {
        assertTrue(String.valueOf(a.header("Content-Type")).startsWith("text/plain"), "plain text: " + a);
        assertFalse(a.body().strip().contains("\n"), "one line: " + a);
        assertFalse(a.body().toLowerCase().contains("<html"), "no HTML page: " + a);
    }

    private static void send(Socket s, String text) throws Exception {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }
}
