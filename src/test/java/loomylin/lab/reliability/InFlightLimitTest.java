package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.json.Json;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --max-in-flight 5 --max-in-flight-wait-ms 100} with 30 concurrent half-second requests: five run,
 * the rest wait 100 ms and get 503 with Retry-After, and /pool (which bypasses the limit) never sees more
 * than five requests in flight plus itself.
 *
 * <p>Pools: loom and qtp:32. Not qtp:4: its one or two free worker threads are a tighter limit than five,
 * so requests wait in the pool's own queue before the admission limit ever sees them (see the README).
 */
class InFlightLimitTest {
    static final int LIMIT = 5;
    static final int CLIENTS = 30;

    static Stream<Arguments> servers() {
        return Stream.of(Twin.values()).flatMap(t -> Stream.of("loom", "qtp:32").map(p -> Arguments.of(t, p)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("servers")
    void excessRequestsGet503WithRetryAfterAndTheCountStaysHonest(Twin twin, String pool) throws Exception {
        ServerOptions options = Twin.options(pool).withMaxInFlight(LIMIT).withMaxInFlightWaitMs(100);
        Javalin app = twin.start(options);
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = app.port();
            RawHttp.get(port, "/wait-blocking?ms=0"); // warm up
            RawHttp.get(port, "/pool?reset=true");

            AtomicBoolean done = new AtomicBoolean();
            AtomicInteger poolAnswers = new AtomicInteger();
            AtomicInteger highestSeen = new AtomicInteger();
            Future<?> poller = clients.submit(() -> {
                while (!done.get()) {
                    RawHttp.Answer a = RawHttp.get(port, "/pool", Duration.ofSeconds(10));
                    assertEquals(200, a.status(), "/pool must answer while the server is at its limit: " + a);
                    poolAnswers.incrementAndGet();
                    highestSeen.accumulateAndGet(((Number) figures(a).get("inFlight")).intValue(), Math::max);
                    Thread.sleep(20);
                }
                return null;
            });
            List<Future<RawHttp.Outcome>> calls = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                calls.add(clients.submit(() -> RawHttp.attempt(port,
                        "GET /wait-blocking?ms=500 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", Duration.ofSeconds(20))));
            }
            Map<String, Integer> kinds = new TreeMap<>();
            for (Future<RawHttp.Outcome> f : calls) {
                RawHttp.Outcome o = f.get();
                kinds.merge(o.kind(), 1, Integer::sum);
                assertTrue(o.complete(), "every request gets a complete answer: " + o);
                if (o.status() == 503) {
                    assertEquals("1", o.answer().header("Retry-After"), "503 carries Retry-After: " + o);
                    assertFalse(o.answer().body().strip().contains("\n"), "one-line message: " + o);
                }
            }
            done.set(true);
            poller.get();

            assertEquals(CLIENTS, kinds.getOrDefault("200", 0) + kinds.getOrDefault("503", 0), "only 200 and 503: " + kinds);
            assertTrue(kinds.getOrDefault("200", 0) >= LIMIT, "at least the first " + LIMIT + " run: " + kinds);
            assertTrue(kinds.getOrDefault("503", 0) >= 1, "the excess is refused: " + kinds);

            @SuppressWarnings("unchecked")
            Map<String, Object> after = (Map<String, Object>) Json.parse(RawHttp.awaitOnlyPoolInFlight(port, Duration.ofSeconds(3)));
            int max = ((Number) after.get("maxInFlight")).intValue();
            // /pool bypasses the limit and the poller sends one after another, but a /pool whose answer the poller
            // already read may still be counted until Jetty completes it: at most two /pool at once.
            assertTrue(max <= LIMIT + 2, "maxInFlight " + max + " <= " + LIMIT + " + at most two /pool requests");
            assertTrue(max >= LIMIT, "the limit was reached: maxInFlight " + max);
            assertTrue(highestSeen.get() <= LIMIT + 2, "inFlight seen by /pool " + highestSeen);
            assertTrue(poolAnswers.get() >= 1);
            assertEquals(1, ((Number) after.get("inFlight")).intValue(), "nothing left in flight but this /pool");
        } finally {
            Stops.stop(app);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> figures(RawHttp.Answer a) {
        return (Map<String, Object>) Json.parse(a.body());
    }
}
