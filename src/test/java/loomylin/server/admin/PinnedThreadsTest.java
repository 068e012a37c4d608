package loomylin.server.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.server.json.Json;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import org.junit.jupiter.api.Test;

/**
 * The admin port counts pinned virtual threads from JFR's jdk.VirtualThreadPinned: requests that sleep inside
 * {@code synchronized} pin on JDK 21 and not from JDK 24 on; under a ReentrantLock or in Object.wait they never
 * pin; a virtual thread that sleeps in a class initialiser pins on every JDK (the positive control, so that
 * "no pin" is never just "nothing recorded yet"). Pins are JVM-wide, so the test reads where they came from.
 */
class PinnedThreadsTest {
    static final int REQUESTS = 8;

    /** Their initialisers sleep: a virtual thread that runs one blocks where it cannot leave its carrier. One per twin's round. */
    static final class SlowInitJava {
        static final long AT = sleepThenNow();
    }

    static final class SlowInitKotlin {
        static final long AT = sleepThenNow();
    }

    static long sleepThenNow() {
        try {
            Thread.sleep(30);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return System.nanoTime();
    }

    @Test
    void sleepingInsideSynchronizedPinsOnlyBeforeJdk24AndEveryPinIsCountedWithWhereItCameFrom() throws Exception {
        for (Twin twin : Twin.values()) {
            Javalin loom = twin.start(Twin.options("loom"));
            AdminOptions options = AdminOptions.DEFAULTS.withHost("127.0.0.1").withPort(0)
                    .withServer(new Watched(loom.port(), "loom", loom.jettyServer().server()));
            AdminServer admin = AdminServer.start(options);
            PinnedThreads pins = PinnedThreads.start(); // the same events as the admin port's, every place kept (other code pins too)
            try {
                String base = "http://127.0.0.1:" + loom.port();
                for (String lock : List.of("reentrant", "wait", "synchronized"))
                    for (HttpResponse<String> r : Http.concurrently(REQUESTS, base + "/wait-locked?ms=20&lock=" + lock))
                        assertEquals(200, r.statusCode(), lock + ": " + r.body());
                Thread.ofVirtual().start(() -> assertTrue((twin == Twin.JAVA ? SlowInitJava.AT : SlowInitKotlin.AT) > 0)).join();
                String adminBase = "http://127.0.0.1:" + admin.port();
                await().atMost(Duration.ofSeconds(20)).alias(twin + ": the class initialiser's pin")
                        .until(() -> where(pins), w -> w.stream().anyMatch(x -> x.contains("SlowInit")));
                List<String> where = where(pins);
                long synchronizedPins = where.stream().filter(w -> w.contains("waitLocked")).mapToLong(PinnedThreadsTest::count).sum();
                if (Runtime.version().feature() < 24) {
                    await().atMost(Duration.ofSeconds(20)).until(() -> where(pins).stream().filter(w -> w.contains("waitLocked"))
                            .mapToLong(PinnedThreadsTest::count).sum() >= REQUESTS);
                } else {
                    // every request would pin on JDK 21; from 24 on none does for the monitor, but a request can still pin once
                    // while the JDK initialises a class under it (seen: 1 of 8 in a fresh test JVM)
                    assertTrue(synchronizedPins < REQUESTS / 2,
                            twin + ": since JDK 24 a virtual thread sleeping in synchronized leaves its carrier: " + where);
                }
                PrometheusText m = PrometheusText.parse(Http.get(adminBase + "/metrics").body());
                assertTrue(m.series("loomylin_virtual_threads_pinned_total") >= 1, "the class initialiser's pin, at least");
                assertTrue(m.series("loomylin_virtual_threads_pinned_seconds_total") > 0, "pins are timed");
                assertTrue(!whereLive(adminBase).isEmpty() && whereLive(adminBase).size() <= PinnedThreads.STACKS, "the live view's most frequent places");
            } finally {
                pins.close();
                admin.close();
                Stops.stop(loom);
            }
        }
    }

    /**
     * The JDK 21 remedy of handing a pinning call to a platform thread: {@code /wait-locked?on=platform} sleeps inside
     * {@code synchronized} on one of the server's {@link loomylin.server.web.PlatformOffload} threads while the request's
     * virtual thread waits for it, parked, its carrier free, on every JDK and in both twins. The platform threads
     * end with the server.
     */
    @Test
    void synchronizedWaitsHandedToPlatformThreadsPinNothing() throws Exception {
        for (Twin twin : Twin.values()) {
            Javalin loom = twin.start(Twin.options("loom"));
            PinnedThreads pins = PinnedThreads.start();
            try {
                String url = "http://127.0.0.1:" + loom.port() + "/wait-locked?ms=20&lock=synchronized&on=platform";
                assertEquals(200, Http.get(url).statusCode(), "classes loaded and initialised (an initialiser pins on any JDK)");
                long before = offloadPins(pins);
                for (HttpResponse<String> r : Http.concurrently(REQUESTS, url)) assertEquals(200, r.statusCode(), twin + ": " + r.body());
                Map<?, ?> pool = (Map<?, ?>) Json.parse(Http.get("http://127.0.0.1:" + loom.port() + "/pool").body());
                assertTrue(((Number) pool.get("offloadThreads")).intValue() >= 1, twin + ": the waits ran on the platform threads: " + pool);
                Thread.ofVirtual().start(() -> assertTrue((twin == Twin.JAVA ? SlowInitOffloadJava.AT : SlowInitOffloadKotlin.AT) > 0)).join();
                await().atMost(Duration.ofSeconds(20)).alias(twin + ": the class initialiser's pin, so that events are being recorded")
                        .until(() -> where(pins), w -> w.stream().anyMatch(x -> x.contains("SlowInitOffload")));
                long pinned = offloadPins(pins) - before;
                assertEquals(0, pinned, twin + ": " + pinned + " of " + REQUESTS + " offloaded requests pinned: " + where(pins));
            } finally {
                pins.close();
                Stops.stop(loom);
            }
            await().atMost(Duration.ofSeconds(10)).alias(twin + ": the platform threads end with the server")
                    .until(() -> Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().contains("-offload-")));
        }
    }

    static final class SlowInitOffloadJava {
        static final long AT = sleepThenNow();
    }

    static final class SlowInitOffloadKotlin {
        static final long AT = sleepThenNow();
    }

    private static long offloadPins(PinnedThreads pins) {
        return where(pins).stream().filter(w -> w.contains("waitLocked") || w.contains("lockedWait")).mapToLong(PinnedThreadsTest::count).sum();
    }

    /**
     * HikariCP 7.1.0 and pgjdbc 42.7.14 guard what a virtual thread waits in with {@code ReentrantLock}s and
     * parking, not monitors: a loom server's requests waiting on PostgreSQL, more of them than connections so that
     * some also wait in the pool, do not pin their carriers, on JDK 21 either (where a monitor held across the
     * socket read would pin every one). The same JFR events catch a class initialiser's pin in the same window.
     */
    @Test
    void waitingOnTheDatabaseThroughHikariCpAndPgjdbcDoesNotPin() throws Exception {
        Javalin loom = Twin.JAVA.start(Twin.options("loom").withDb(loomylin.testing.TestDatabase.options(4, 10_000)));
        PinnedThreads pins = PinnedThreads.start();
        try {
            String url = "http://127.0.0.1:" + loom.port() + "/db-blocking?ms=20";
            // classes loaded and initialised, the pool's waiting path included (a class initialiser pins on any JDK)
            for (int i = 0; i < 8; i++) assertEquals(200, Http.get(url).statusCode());
            for (HttpResponse<String> r : Http.concurrently(4 * REQUESTS, url)) assertEquals(200, r.statusCode(), r.body());
            long before = databasePins(pins);
            for (HttpResponse<String> r : Http.concurrently(4 * REQUESTS, url)) assertEquals(200, r.statusCode(), r.body());
            Thread.ofVirtual().start(() -> assertTrue(SlowInitDb.AT > 0)).join();
            await().atMost(Duration.ofSeconds(20)).alias("the class initialiser's pin, so that events are being recorded")
                    .until(() -> where(pins), w -> w.stream().anyMatch(x -> x.contains("SlowInitDb")));
            long pinned = databasePins(pins) - before;
            assertTrue(pinned <= 1, pinned + " of " + 4 * REQUESTS + " requests waiting on the database pinned: " + where(pins));
        } finally {
            pins.close();
            Stops.stop(loom);
        }
    }

    static final class SlowInitDb {
        static final long AT = sleepThenNow();
    }

    private static long databasePins(PinnedThreads pins) {
        return where(pins).stream().filter(w -> w.contains("dbBlocking") || w.contains("org.postgresql") || w.contains("com.zaxxer"))
                .mapToLong(PinnedThreadsTest::count).sum();
    }

    private static List<String> where(PinnedThreads pins) {
        return pins.read(Integer.MAX_VALUE).where();
    }

    @SuppressWarnings("unchecked")
    private static List<String> whereLive(String adminBase) {
        Map<String, Object> live = (Map<String, Object>) Json.parse(Http.get(adminBase + "/live").body());
        return (List<String>) ((Map<String, Object>) live.get("virtualThreads")).get("pinnedWhere");
    }

    /** "12 x a.b.C.m:3 < ..." -> 12 */
    private static long count(String where) {
        return Long.parseLong(where.substring(0, where.indexOf(" x ")));
    }
}
