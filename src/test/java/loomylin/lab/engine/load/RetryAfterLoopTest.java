package loomylin.lab.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.api.Test;

/** The closed loop that honours Retry-After: what it reads from the header, and that it waits as the header asks. */
class RetryAfterLoopTest {
    static final int CLIENTS = 20;
    static final Duration WINDOW = Duration.ofSeconds(3);

    @Test
    void readsDelaySecondsAndDatesAndFallsBackToOneSecond() {
        Instant now = Instant.parse("2026-11-26T12:00:00Z");
        assertEquals(Duration.ofSeconds(1), RetryAfterLoop.retryAfter("1", now));
        assertEquals(Duration.ofSeconds(7), RetryAfterLoop.retryAfter(" 7 ", now));
        assertEquals(Duration.ZERO, RetryAfterLoop.retryAfter("0", now));
        assertEquals(RetryAfterLoop.MAX_RETRY_AFTER, RetryAfterLoop.retryAfter("86400", now), "a day is capped");
        assertEquals(Duration.ofSeconds(30), RetryAfterLoop.retryAfter("Thu, 26 Nov 2026 12:00:30 GMT", now));
        assertEquals(Duration.ZERO, RetryAfterLoop.retryAfter("Thu, 26 Nov 2026 11:00:00 GMT", now), "a date past is no wait");
        for (String none : new String[] {null, "", "soon", "-5", "1.5"}) assertEquals(Duration.ofSeconds(1), RetryAfterLoop.retryAfter(none, now), none);
    }

    /**
     * One slot, no queue: of 20 clients of 300 ms requests, one at a time is answered 200 and the rest get 503 with
     * {@code Retry-After: 1}. A client that waits a second after each 503 sends at most one request per second of
     * the window (and one more) besides those answered 200; a client re-sending at once would send thousands.
     */
    @Test
    void waitsAsEach503AsksBeforeItsNextRequest() throws Exception {
        Javalin app = Twin.JAVA.start(Twin.options("loom").withMaxInFlight(1).withMaxInFlightWaitMs(0));
        try {
            OhaRun.Split s = RetryAfterLoop.run(URI.create("http://127.0.0.1:" + app.port() + "/wait-blocking?ms=300"), CLIENTS, WINDOW, Duration.ofSeconds(5));
            long refused = s.all().answered() - s.all().ok();
            assertTrue(s.all().ok() >= 1, "the slot answers: " + s);
            assertTrue(refused >= CLIENTS - 1, "the others are refused at first: " + s);
            long bound = CLIENTS * (WINDOW.toSeconds() + 1) + s.all().ok();
            assertTrue(s.all().sent() + s.deadlineAborts() <= bound, "at most " + bound + " requests when every 503 is followed by a second's wait: " + s);
            assertEquals(0, s.errors(), "no timeouts or failed connections: " + s);
            assertTrue(s.ok().p50Ms() >= 300, "the 2xx latency is the request's own: " + s);
        } finally {
            Stops.stop(app);
        }
    }
}
