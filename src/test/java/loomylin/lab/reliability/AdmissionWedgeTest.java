package loomylin.lab.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import loomylin.server.jetty.internal.QoSHandlerWedge;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --max-in-flight} never wedges a server: on every pool kind of both twins, with the limit below the
 * client count, fixed or {@code auto}, 20 short bursts each followed by a probe that must be answered 200 within
 * 3 s; then clients that go away in the middle of their requests (admitted and waiting ones), after which the
 * limit holds no slot and queues nobody ({@code admissionInFlight} and {@code admissionQueued} back to 0 in /pool)
 * and the server answers again. The three
 * virtual-thread shapes run in one JVM (they share its carriers, as the wedge of Jetty's QoSHandler needed);
 * the bursts vary the clients (50, 100), the request (1 ms and 0 ms blocking waits, a 1 ms async wait) and, across JVMs,
 * the limit and its wait (36 with a 1 s wait; 4 refused at once; auto, which starts at 20 and moves, with a 1 s wait and
 * refused at once). Every server of a JVM takes its burst at the
 * same time. A probe that goes unanswered fails the test and leaves a JSON dump of every thread, virtual ones
 * included, under {@code target/admission-wedge/}.
 */
@IntegrationTest
class AdmissionWedgeTest {
    static final int BURSTS = 20;
    static final Duration BURST = Duration.ofMillis(500);
    static final Duration PROBE = Duration.ofSeconds(3);
    /** Short requests: a slot changes hands hundreds of times a second (Jetty's QoSHandler wedged on both). */
    static final List<String> PATHS = List.of("/wait-blocking?ms=1", "/wait-blocking?ms=0", "/wait-async?ms=1");

    static Stream<Arguments> shapes() {
        List<Arguments> shapes = new ArrayList<>();
        for (String twin : List.of("java", "kotlin")) {
            shapes.add(Arguments.of(twin, "loom,qtp-vt:8,qtp-vtp:8:64", "36", 1000));
            shapes.add(Arguments.of(twin, "jetty-vtp,jetty-vtp:64,qtp:32", "36", 1000));
            shapes.add(Arguments.of(twin, "qtp:4,loom,qtp-vtp:8:200", "4", 0));
            shapes.add(Arguments.of(twin, "loom,qtp-vt:8,qtp-vtp:8:64", "auto", 1000));
            shapes.add(Arguments.of(twin, "jetty-vtp,jetty-vtp:64,qtp:32,qtp:4", "auto", 0));
        }
        return shapes.stream();
    }

    @ParameterizedTest(name = "{0} {1} --max-in-flight {2} --max-in-flight-wait-ms {3}")
    @MethodSource("shapes")
    void everyServerAnswersAfterEveryBurst(String twin, String pools, String limit, int waitMs) throws Exception {
        try (ChildJvm child = ChildJvm.servers("--twin", twin, "--pools", pools, "--max-in-flight", String.valueOf(limit),
                "--max-in-flight-wait-ms", String.valueOf(waitMs), "--admin-port", "0").startReady();
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Integer> ports = child.serverPorts();
            List<String> kinds = List.of(pools.split(","));
            assertEquals(kinds.size(), ports.size(), child.output());
            for (int burst = 1; burst <= BURSTS; burst++) {
                String path = PATHS.get(burst % PATHS.size());
                int clientCount = burst % 2 == 0 ? 50 : 100;
                List<Future<Long>> answers = new ArrayList<>();
                for (int port : ports) answers.add(clients.submit(() -> QoSHandlerWedge.burst(port, path, clientCount, BURST)));
                for (Future<Long> f : answers) f.get();
                for (int i = 0; i < ports.size(); i++) {
                    int port = ports.get(i);
                    if (!QoSHandlerWedge.probe(port, "/wait-blocking?ms=1", PROBE)) {
                        Path dump = child.jsonThreadDump(Path.of("target", "admission-wedge",
                                twin + "-" + kinds.get(i).replace(':', '_') + "-burst" + burst + ".json"));
                        fail(twin + " " + kinds.get(i) + " (--max-in-flight " + limit + "): no answer within " + PROBE.toSeconds()
                                + " s after burst " + burst + " (" + clientCount + " clients of " + path + "); threads: " + dump.toAbsolutePath());
                    }
                    RawHttp.Answer a = RawHttp.get(port, "/wait-blocking?ms=1", PROBE);
                    assertEquals(200, a.status(), twin + " " + kinds.get(i) + " after burst " + burst + ": " + a);
                }
            }
            for (int i = 0; i < ports.size(); i++) {
                int port = ports.get(i);
                abortMidRequest(port, 60);
                // qtp:4 runs what its two threads have queued first, aborted requests included: seconds, not a wedge
                String pool = awaitAdmissionEmpty(port, Duration.ofSeconds(30));
                assertTrue(pool.contains("\"admissionInFlight\":0,") && pool.contains("\"admissionQueued\":0,"),
                        twin + " " + kinds.get(i) + " (--max-in-flight " + limit + "): a slot or a waiter left behind after clients went away: " + pool);
                // and answers again once what they left queued has run: qtp:4's two threads take seconds over 60 aborted 200 ms requests
                assertTrue(answersWithin(port, Duration.ofSeconds(30)), twin + " " + kinds.get(i) + " (--max-in-flight " + limit
                        + "): no 200 within 30 s after clients went away: " + RawHttp.get(port, "/pool", PROBE).body());
            }
            assertTrue(child.process().isAlive(), child.output());
        }
    }

    /** {@code clients} connections each send a 200 ms request and reset the connection 50 ms later, mid-request. */
    static void abortMidRequest(int port, int clients) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                Socket s = RawHttp.connect(port, PROBE);
                s.getOutputStream().write("GET /wait-blocking?ms=200 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                sockets.add(s);
            }
            Thread.sleep(50);
        } finally {
            for (Socket s : sockets) {
                s.setSoLinger(true, 0); // a reset, as a client that crashed
                s.close();
            }
        }
    }

    /** Whether a probe is answered 200 within {@code within} (each try bounded by {@link #PROBE}). */
    static boolean answersWithin(int port, Duration within) {
        try {
            await().atMost(within).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                    .until(() -> RawHttp.get(port, "/wait-blocking?ms=1", PROBE).status() == 200);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** Polls /pool until the limit holds no slot and queues nobody, at most {@code within}; the last /pool body. */
    static String awaitAdmissionEmpty(int port, Duration within) {
        AtomicReference<String> body = new AtomicReference<>("");
        try {
            await().atMost(within).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> {
                body.set(RawHttp.get(port, "/pool", PROBE).body());
                return body.get().contains("\"admissionInFlight\":0,") && body.get().contains("\"admissionQueued\":0,");
            });
        } catch (ConditionTimeoutException e) {
            // the caller's assertion says what stayed
        }
        return body.get();
    }
}
