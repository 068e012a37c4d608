package loomylin.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stop bound, in child JVMs: SIGTERM with a request in flight that outlives {@code --grace-ms} ends the
 * process within the grace plus one second, on every pool kind and both twins, and with a grace of 0. That
 * request's client gets exactly one outcome: its connection is closed without an answer (EOF before any byte);
 * the process exits 0, with one warning line when there was a grace to wait. A second signal during a stop
 * ends the process at once, status 1. (SIGINT is not used: a JVM started from a non-interactive shell's
 * background job inherits SIGINT ignored and never sees it.)
 * The only time asserted is the bound itself.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class StopBoundTest {
    static final long BOUND_PAST_GRACE_MS = 1_000;
    static final String CUT_OFF = "stop: requests still running when the grace ended were cut off without an answer";

    @ParameterizedTest(name = "{0} twin, {1}, --grace-ms {2}")
    @CsvSource({
            "java, qtp:4, 1000", "java, qtp-vt:8, 1000", "java, loom, 1000", "java, jetty-vtp, 1000",
            "kotlin, qtp:4, 1000", "kotlin, qtp-vt:8, 1000", "kotlin, loom, 1000", "kotlin, jetty-vtp, 1000",
            "java, qtp:4, 0", "java, qtp-vt:8, 0", "java, loom, 0", "java, jetty-vtp, 0", "kotlin, loom, 0"})
    void sigtermEndsTheProcessWithinTheGracePlusOneSecond(String twin, String pool, long graceMs) throws Exception {
        try (ChildJvm child = ChildJvm.servers("--twin", twin, "--pools", pool, "--grace-ms", String.valueOf(graceMs)).startReady();
             ExecutorService client = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = child.port();
            Future<RawHttp.Outcome> longRequest = client.submit(() -> {
                try (Socket s = RawHttp.connect(port, Duration.ofSeconds(60))) {
                    s.getOutputStream().write("GET /wait-blocking?ms=10000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    return new RawHttp.Outcome(RawHttp.read(s.getInputStream(), System.nanoTime()), null);
                } catch (java.io.IOException e) {
                    return new RawHttp.Outcome(null, RawHttp.classify(e));
                }
            });
            awaitRunning(child, pool);

            child.signal("TERM");

            assertTrue(child.process().waitFor(graceMs + BOUND_PAST_GRACE_MS, TimeUnit.MILLISECONDS),
                    "ends within --grace-ms " + graceMs + " + " + BOUND_PAST_GRACE_MS + " ms:\n" + child.output());
            RawHttp.Outcome outcome = longRequest.get(30, TimeUnit.SECONDS);
            assertEquals("eof", outcome.kind(), "the request that outlived the grace is closed without an answer: " + outcome + "\n" + child.output());
            assertEquals(0, child.process().exitValue(), "cutting a request off at the end of the grace is how a stop ends, not a failure:\n" + child.output());
            // with a grace, Jetty's graceful stop notices the request it gives up on; with none, nothing waits for it
            assertEquals(graceMs > 0 ? 1 : 0, child.count(CUT_OFF), child.output());
            System.out.println("stop bound " + twin + " " + pool + " grace " + graceMs + ": " + outcome);
        }
    }

    @Test
    void aSecondSignalDuringAStopExitsAtOnceWithStatus1() throws Exception {
        try (ChildJvm child = ChildJvm.servers("--pools", "loom", "--grace-ms", "60000").startReady();
             ExecutorService client = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = child.port();
            client.submit(() -> RawHttp.attempt(port, "GET /wait-blocking?ms=60000 HTTP/1.1\r\nHost: x\r\n\r\n", Duration.ofSeconds(90)));
            awaitInFlight(port, 1);
            child.signal("TERM");
            child.awaitOutput("SIGTERM: stopping", Duration.ofSeconds(10));

            child.signal("TERM");

            // "at once": long before the 60 s grace the first signal granted
            assertEquals(1, child.exit(Duration.ofSeconds(10)), child.output());
            assertTrue(child.output().contains("SIGTERM again: exiting now"), child.output());
        }
    }

    /**
     * Waits until the long request runs. A qtp:4 may have a single thread free for requests, busy with it, so
     * /pool could not answer: there the child's thread dump shows the sleeping handler instead.
     */
    private static void awaitRunning(ChildJvm child, String pool) {
        if (!pool.startsWith("qtp:")) {
            awaitInFlight(child.port(), 1);
            return;
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> child.threadDump().contains("Endpoints.waitBlocking"));
    }

    /** Waits until {@code requests} requests besides /pool's own are in flight. */
    private static void awaitInFlight(int port, int requests) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> RawHttp.get(port, "/pool").body().contains("\"inFlight\":" + (requests + 1) + ","));
    }
}
