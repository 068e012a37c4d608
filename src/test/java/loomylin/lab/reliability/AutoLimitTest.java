package loomylin.lab.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import loomylin.server.admin.AdminOptions;
import loomylin.server.admin.AdminServer;
import loomylin.server.admin.Watched;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.server.jetty.MaxInFlight;
import loomylin.server.json.Json;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --max-in-flight auto}: under a burst of slow requests from more clients than its first limit, the limit
 * /pool reports moves from where it started and never leaves its bounds; the excess gets the one-line {@code 503}
 * with {@code Retry-After}; afterwards the limit holds no slot and queues nobody; and /pool and the admin port's
 * /metrics show its figures. Every algorithm on both twins, {@code loom} (the pool a limit matters most on).
 */
class AutoLimitTest {
    static final int CLIENTS = 60;
    static final Duration LOAD = Duration.ofSeconds(2);
    /** Long enough that the clients' first requests all arrive before any completes, the limit still at its start: some are refused. */
    static final String SLOW = "/wait-blocking?ms=50";

    static Stream<Arguments> limits() {
        return Stream.of(Twin.values()).flatMap(t -> Stream.of("auto", "auto:vegas", "auto:aimd").map(l -> Arguments.of(t, l)));
    }

    @ParameterizedTest(name = "{0} --max-in-flight {1}")
    @MethodSource("limits")
    void theLimitMovesWithinItsBoundsAndTheExcessIsRefusedInOneLine(Twin twin, String spelling) throws Exception {
        MaxInFlight setting = MaxInFlight.parse(spelling);
        Javalin app = twin.start(Twin.options("loom").withMaxInFlight(setting).withMaxInFlightWaitMs(0));
        AdminServer admin = AdminServer.start(AdminOptions.DEFAULTS.withHost("127.0.0.1").withPort(0)
                .withServer(new Watched(app.port(), "loom", app.jettyServer().server())));
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = app.port();
            Map<String, Object> before = pool(port);
            assertEquals(setting.toString(), before.get("admission"));
            assertEquals(setting.algorithmName(), before.get("admissionAlgorithm"));
            assertEquals(MaxInFlight.AUTO_INITIAL, number(before, "admissionLimit"));
            assertEquals(MaxInFlight.AUTO_MIN, number(before, "admissionLimitMin"));
            assertEquals(MaxInFlight.AUTO_MAX, number(before, "admissionLimitMax"));

            AtomicBoolean done = new AtomicBoolean();
            Set<Integer> limitsSeen = new ConcurrentSkipListSet<>();
            Future<?> poller = clients.submit(() -> {
                while (!done.get()) {
                    limitsSeen.add(number(pool(port), "admissionLimit"));
                    Thread.sleep(20);
                }
                return null;
            });
            long end = System.nanoTime() + LOAD.toNanos();
            List<Future<List<RawHttp.Outcome>>> loops = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                loops.add(clients.submit(() -> {
                    List<RawHttp.Outcome> outcomes = new ArrayList<>();
                    while (System.nanoTime() < end) {
                        outcomes.add(RawHttp.attempt(port, "GET " + SLOW + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                                Duration.ofSeconds(10)));
                    }
                    return outcomes;
                }));
            }
            Map<String, Integer> kinds = new TreeMap<>();
            for (Future<List<RawHttp.Outcome>> f : loops) {
                for (RawHttp.Outcome o : f.get()) {
                    kinds.merge(o.kind(), 1, Integer::sum);
                    assertTrue(o.complete(), "every request gets a complete answer: " + o);
                    if (o.status() == 503) {
                        assertEquals("1", o.answer().header("Retry-After"), "503 carries Retry-After: " + o);
                        assertFalse(o.answer().body().strip().contains("\n"), "one-line message: " + o);
                    }
                }
            }
            done.set(true);
            poller.get();
            limitsSeen.add(number(pool(port), "admissionLimit"));

            assertEquals(Set.of("200", "503"), new TreeSet<>(kinds.keySet()), "200s and the limit's 503s: " + kinds);
            assertTrue(limitsSeen.stream().anyMatch(l -> l != MaxInFlight.AUTO_INITIAL), "the limit moved from " + MaxInFlight.AUTO_INITIAL + ": " + limitsSeen);
            assertTrue(limitsSeen.stream().allMatch(l -> l >= MaxInFlight.AUTO_MIN && l <= MaxInFlight.AUTO_MAX), "within its bounds: " + limitsSeen);

            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> number(pool(port), "admissionInFlight") == 0 && number(pool(port), "admissionQueued") == 0);
            Map<String, Object> after = pool(port);
            assertEquals(kinds.get("503").longValue(), ((Number) after.get("admissionRefused")).longValue(), "every 503 was the limit's: " + after);
            assertEquals(kinds.get("200").longValue(), ((Number) after.get("admissionSucceeded")).longValue(), "every 200 a success: " + after);
            assertEquals(0L, ((Number) after.get("admissionDropped")).longValue(), after.toString());

            HttpResponse<String> r = Http.get("http://127.0.0.1:" + admin.port() + "/metrics");
            assertEquals(200, r.statusCode());
            PrometheusText m = PrometheusText.parse(r.body());
            String p = String.valueOf(port);
            assertEquals(number(after, "admissionLimit"), (int) m.series("loomylin_admission_limit", "port", p, "pool", "loom"));
            assertEquals(MaxInFlight.AUTO_MIN, (int) m.series("loomylin_admission_limit_bound", "port", p, "pool", "loom", "bound", "min"));
            assertEquals(MaxInFlight.AUTO_MAX, (int) m.series("loomylin_admission_limit_bound", "port", p, "pool", "loom", "bound", "max"));
            assertEquals(1.0, m.series("loomylin_admission_algorithm_info", "port", p, "pool", "loom", "algorithm", setting.algorithmName()));
            assertEquals(0.0, m.series("loomylin_admission_in_flight", "port", p, "pool", "loom"));
            assertEquals(kinds.get("200").doubleValue(), m.series("loomylin_admission_completed_total", "port", p, "pool", "loom", "outcome", "success"));
            assertEquals(0.0, m.series("loomylin_admission_completed_total", "port", p, "pool", "loom", "outcome", "dropped"));
            assertEquals(kinds.get("503").doubleValue(), m.series("loomylin_admission_refused_total", "port", p, "pool", "loom", "reason", "queue_full"));
        } finally {
            admin.close();
            Stops.stop(app);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> pool(int port) throws Exception {
        return (Map<String, Object>) Json.parse(RawHttp.get(port, "/pool", Duration.ofSeconds(10)).body());
    }

    static int number(Map<String, Object> figures, String name) {
        return ((Number) figures.get(name)).intValue();
    }
}
