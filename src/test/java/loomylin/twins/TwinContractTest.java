package loomylin.twins;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import loomylin.server.backend.Backend;
import loomylin.server.json.Json;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.TestData;
import loomylin.testing.TestDatabase;
import loomylin.testing.Twin;
import loomylin.server.web.FileBody;
import loomylin.server.web.Limits;
import loomylin.server.web.MixedWork;
import loomylin.server.web.Sha256Loop;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of every route, checked on both twins, and the twins checked against each other: same
 * status, content type and body for every request in the table, so they cannot drift apart.
 */
class TwinContractTest {
    private static Backend backend;
    private static final Map<Twin, Javalin> SERVERS = new LinkedHashMap<>();

    @BeforeAll
    static void start() {
        backend = Backend.start("127.0.0.1", 0, 5, Backend.Fault.NONE);
        for (Twin twin : Twin.values())
            SERVERS.put(twin, twin.start(Twin.options("loom").withBackend(URI.create("http://127.0.0.1:" + backend.port())).withDb(TestDatabase.options())));
    }

    @AfterAll
    static void stop() {
        List<Object> started = new java.util.ArrayList<>(SERVERS.values());
        started.add(backend);
        Stops.stopAll(started);
    }

    private static final String HELLO = "Hello, World";

    /** path, status, body (null = check separately), content type prefix. */
    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("/computational", 200, HELLO, "text/plain"),
                Arguments.of("/computational?iterations=0", 200, HELLO, "text/plain"),
                Arguments.of("/computational?iterations=10000", 200, HELLO, "text/plain"),
                Arguments.of("/computational?iterations=abc", 400, "iterations must be a whole number from 0 to 10000000, got 'abc'\n", "text/plain"),
                Arguments.of("/computational?iterations=-1", 400, "iterations must be a whole number from 0 to 10000000, got '-1'\n", "text/plain"),
                Arguments.of("/computational?iterations=10000001", 400, "iterations must be a whole number from 0 to 10000000, got 10000001\n", "text/plain"),
                Arguments.of("/computational?iterations=99999999999", 400, "iterations must be a whole number from 0 to 10000000, got '99999999999'\n", "text/plain"),
                Arguments.of("/wait-blocking?ms=1", 200, HELLO, "text/plain"),
                Arguments.of("/wait-blocking?ms=", 400, "ms must be a whole number from 0 to 60000, got ''\n", "text/plain"),
                Arguments.of("/wait-blocking?ms=60001", 400, "ms must be a whole number from 0 to 60000, got 60001\n", "text/plain"),
                Arguments.of("/wait-blocking?ms=1&ms=2", 400, "ms given 2 times; give it once\n", "text/plain"),
                Arguments.of("/wait-async?ms=1", 200, HELLO, "text/plain"),
                Arguments.of("/wait-async?ms=1.5", 400, "ms must be a whole number from 0 to 60000, got '1.5'\n", "text/plain"),
                Arguments.of("/wait-locked?ms=1", 200, HELLO, "text/plain"),
                Arguments.of("/wait-locked?ms=1&lock=synchronized", 200, HELLO, "text/plain"),
                Arguments.of("/wait-locked?ms=1&lock=reentrant", 200, HELLO, "text/plain"),
                Arguments.of("/wait-locked?ms=1&lock=wait", 200, HELLO, "text/plain"),
                Arguments.of("/wait-locked?ms=1&lock=spin", 400, "lock must be one of synchronized, reentrant, wait, got 'spin'\n", "text/plain"),
                Arguments.of("/wait-locked?ms=1&lock=synchronized&on=platform", 200, HELLO, "text/plain"),
                Arguments.of("/wait-locked?ms=1&lock=reentrant&on=request", 200, HELLO, "text/plain"),
                Arguments.of("/wait-locked?ms=1&lock=wait&on=platform", 200, HELLO, "text/plain"),
                Arguments.of("/wait-locked?ms=1&on=carrier", 400, "on must be one of request, platform, got 'carrier'\n", "text/plain"),
                Arguments.of("/wait-locked?lock=wait&lock=wait", 400, "lock given 2 times; give it once\n", "text/plain"),
                Arguments.of("/wait-locked?ms=60001&lock=wait", 400, "ms must be a whole number from 0 to 60000, got 60001\n", "text/plain"),
                Arguments.of("/hops-blocking?delay=0", 200, null, "application/json"),
                Arguments.of("/hops-async?delay=0", 200, null, "application/json"),
                Arguments.of("/hops-blocking?delay=x", 400, "delay must be a whole number from 0 to 60000, got 'x'\n", "text/plain"),
                Arguments.of("/hops-async?delay=60001", 400, "delay must be a whole number from 0 to 60000, got 60001\n", "text/plain"),
                Arguments.of("/mixed?cpu=0&file=16", 200, null, "application/octet-stream"),
                Arguments.of("/mixed-async?cpu=0&file=16", 200, null, "application/octet-stream"),
                Arguments.of("/mixed?cpu=1&sleep=1&file=0", 200, "", "application/octet-stream"),
                Arguments.of("/mixed-async?cpu=1&sleep=1&file=0", 200, "", "application/octet-stream"),
                Arguments.of("/mixed?cpu=abc", 400, "cpu must be a whole number from 0 to 1000000, got 'abc'\n", "text/plain"),
                Arguments.of("/mixed-async?cpu=1000001", 400, "cpu must be a whole number from 0 to 1000000, got 1000001\n", "text/plain"),
                Arguments.of("/mixed?sleep=60001", 400, "sleep must be a whole number from 0 to 60000, got 60001\n", "text/plain"),
                Arguments.of("/mixed-async?sleep=-1", 400, "sleep must be a whole number from 0 to 60000, got '-1'\n", "text/plain"),
                Arguments.of("/mixed?file=" + (TestData.BYTES + 1), 400,
                        "file must be a whole number from 0 to " + TestData.BYTES + ", got " + (TestData.BYTES + 1) + "\n", "text/plain"),
                Arguments.of("/mixed-async?file=1&file=2", 400, "file given 2 times; give it once\n", "text/plain"),
                Arguments.of("/mixed?cpu=1&sleep=3&file=0&calls=2", 200, "", "application/octet-stream"),
                Arguments.of("/mixed-async?cpu=1&sleep=3&file=0&calls=2", 200, "", "application/octet-stream"),
                Arguments.of("/mixed?calls=101", 400, "calls must be a whole number from 0 to 100, got 101\n", "text/plain"),
                Arguments.of("/mixed-async?calls=-1", 400, "calls must be a whole number from 0 to 100, got '-1'\n", "text/plain"),
                Arguments.of("/db-blocking?id=7&ms=0", 200, "{\"id\":7,\"name\":\"item-7\"}", "application/json"),
                Arguments.of("/db-blocking?id=" + loomylin.server.db.Items.ROWS + "&ms=1", 200, "{\"id\":" + loomylin.server.db.Items.ROWS + ",\"name\":\"item-" + loomylin.server.db.Items.ROWS + "\"}", "application/json"),
                Arguments.of("/db-blocking?id=0x", 400, "id must be a whole number from 0 to " + loomylin.server.db.Items.ROWS + ", got '0x'\n", "text/plain"),
                Arguments.of("/db-blocking?ms=60001", 400, "ms must be a whole number from 0 to 60000, got 60001\n", "text/plain"),
                Arguments.of("/db-async?id=7&ms=0", 200, "{\"id\":7,\"name\":\"item-7\"}", "application/json"),
                Arguments.of("/db-async?id=99&ms=1", 200, "{\"id\":99,\"name\":\"item-99\"}", "application/json"),
                Arguments.of("/db-async?id=-3", 400, "id must be a whole number from 0 to " + loomylin.server.db.Items.ROWS + ", got '-3'\n", "text/plain"),
                Arguments.of("/db-async?ms=1&ms=2", 400, "ms given 2 times; give it once\n", "text/plain"),
                Arguments.of("/nope", 404, "no route GET /nope; routes: " + loomylin.server.web.Routes.listing() + "\n", "text/plain"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void everyTwinAnswersTheSame(String path, int status, String body, String type) {
        Map<Twin, HttpResponse<String>> answers = new LinkedHashMap<>();
        for (Twin twin : Twin.values()) answers.put(twin, Http.get("http://127.0.0.1:" + SERVERS.get(twin).port() + path));
        for (Map.Entry<Twin, HttpResponse<String>> e : answers.entrySet()) {
            HttpResponse<String> r = e.getValue();
            assertEquals(status, r.statusCode(), e.getKey() + " " + path + ": " + r.body());
            if (body != null) assertEquals(body, r.body(), e.getKey() + " " + path);
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith(type), e.getKey() + " " + path + " " + r.headers());
        }
        HttpResponse<String> java = answers.get(Twin.JAVA), kotlin = answers.get(Twin.KOTLIN);
        assertEquals(java.statusCode(), kotlin.statusCode(), path);
        assertEquals(java.body(), kotlin.body(), path);
        assertEquals(java.headers().firstValue("Content-Type"), kotlin.headers().firstValue("Content-Type"), path);
    }

    /** Above one chunk and not a multiple of it, so the chunk loop's last short read is exercised. */
    static final int BODY = FileBody.CHUNK * 3 + 123;

    @Test
    void mixedSendsTheDataFilesFirstBytesAndTheDigestOfItsWork() throws Exception {
        byte[] file = Files.readAllBytes(TestData.file().path());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (Twin twin : Twin.values()) {
            for (String route : List.of("/mixed", "/mixed-async")) {
                for (int bytes : List.of(BODY, TestData.BYTES)) {
                    URI uri = URI.create("http://127.0.0.1:" + SERVERS.get(twin).port() + route + "?cpu=1000&sleep=1&file=" + bytes);
                    HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
                    String where = twin + " " + uri;
                    assertEquals(200, r.statusCode(), where);
                    assertEquals(String.valueOf(bytes), r.headers().firstValue("Content-Length").orElse(""), where);
                    assertArrayEquals(Arrays.copyOf(file, bytes), r.body(), where);
                    assertEquals(Sha256Loop.run(1000), r.headers().firstValue(MixedWork.DIGEST_HEADER).orElse(""), where);
                }
            }
            HttpResponse<byte[]> defaults = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + SERVERS.get(twin).port() + "/mixed")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(Limits.FILE_DEFAULT, defaults.body().length, twin + " default file");
            assertEquals(Sha256Loop.run(Limits.CPU_DEFAULT), defaults.headers().firstValue(MixedWork.DIGEST_HEADER).orElse(""), twin + " default cpu");
        }
    }

    @Test
    void mixedWithCallsWaitsOnThatManyBackendEchoesAndStillSendsItsBody() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (Twin twin : Twin.values()) {
            for (String route : List.of("/mixed", "/mixed-async")) {
                backend.clearCalls();
                URI uri = URI.create("http://127.0.0.1:" + SERVERS.get(twin).port() + route + "?cpu=1000&sleep=7&file=16&calls=3");
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
                String where = twin + " " + uri;
                assertEquals(200, r.statusCode(), where);
                assertEquals(16, r.body().length, where);
                assertEquals(Sha256Loop.run(1000), r.headers().firstValue(MixedWork.DIGEST_HEADER).orElse(""), where);
                assertEquals(3, backend.calls().stream().filter(c -> c.route().equals("echo")).count(), where);
            }
        }
    }

    @Test
    void theDigestIsSha256IteratedOverA256ByteBlock() throws Exception {
        byte[] block = new byte[256];
        java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
        for (int i = 0; i < 3; i++) System.arraycopy(sha.digest(block), 0, block, 0, 32);
        assertEquals(java.util.HexFormat.of().formatHex(block, 0, 8), Sha256Loop.run(3));
        assertEquals("0000000000000000", Sha256Loop.run(0));
    }

    @Test
    void hopsReturnTheMeetingsOfTheCaller() {
        for (Twin twin : Twin.values()) {
            for (String route : List.of("/hops-blocking", "/hops-async")) {
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + SERVERS.get(twin).port() + route + "?delay=0", "Bearer alice");
                Map<?, ?> json = (Map<?, ?>) Json.parse(r.body());
                assertEquals("user-" + Integer.toHexString("alice".hashCode()), json.get("userId"), twin + route);
                assertEquals(2, ((List<?>) json.get("meetings")).size(), twin + route);
            }
        }
    }

    /** Every --hop-client gives /hops-blocking the same answers in both twins, bad requests included. */
    @ParameterizedTest(name = "hop-client {0}")
    @org.junit.jupiter.params.provider.EnumSource(loomylin.server.jetty.HopClientKind.class)
    void everyHopClientAnswersTheSameInBothTwins(loomylin.server.jetty.HopClientKind hopClient) {
        Map<Twin, Javalin> servers = new LinkedHashMap<>();
        try {
            for (Twin twin : Twin.values()) {
                loomylin.server.jetty.ServerOptions o = Twin.options("loom");
                o = o.withBackend(java.net.URI.create("http://127.0.0.1:" + backend.port())).withHopClient(hopClient);
                servers.put(twin, twin.start(o));
            }
            for (String path : List.of("/hops-blocking?delay=0", "/hops-blocking?delay=x", "/hops-blocking?delay=1&delay=2")) {
                Map<Twin, HttpResponse<String>> answers = new LinkedHashMap<>();
                for (Twin twin : Twin.values())
                    answers.put(twin, Http.get("http://127.0.0.1:" + servers.get(twin).port() + path, "Bearer carol"));
                HttpResponse<String> java = answers.get(Twin.JAVA), kotlin = answers.get(Twin.KOTLIN);
                assertEquals(java.statusCode(), kotlin.statusCode(), hopClient.label() + " " + path);
                assertEquals(java.body(), kotlin.body(), hopClient.label() + " " + path);
                assertEquals(java.headers().firstValue("Content-Type"), kotlin.headers().firstValue("Content-Type"), hopClient.label() + " " + path);
            }
            HttpResponse<String> r = Http.get("http://127.0.0.1:" + servers.get(Twin.JAVA).port() + "/hops-blocking?delay=0", "Bearer carol");
            assertEquals(200, r.statusCode(), r.body());
            Map<?, ?> json = (Map<?, ?>) Json.parse(r.body());
            assertEquals("user-" + Integer.toHexString("carol".hashCode()), json.get("userId"), hopClient.label());
            assertEquals(2, ((List<?>) json.get("meetings")).size(), hopClient.label());
        } finally {
            Stops.stopAll(servers.values());
        }
    }

    @Test
    void poolReportsTheSameFiguresInBothTwins() {
        Map<Twin, Map<?, ?>> pools = new LinkedHashMap<>();
        for (Twin twin : Twin.values()) {
            HttpResponse<String> r = Http.get("http://127.0.0.1:" + SERVERS.get(twin).port() + "/pool");
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
            Map<?, ?> json = (Map<?, ?>) Json.parse(r.body());
            assertEquals(twin.name().toLowerCase(), json.get("twin"));
            assertEquals("loom", json.get("kind"));
            assertEquals(SERVERS.get(twin).port(), json.get("port"));
            assertEquals("LoomThreadPool", json.get("pool"));
            for (String key : List.of("inFlight", "maxInFlight", "jvmPlatformThreads", "threads", "idleThreads", "busyThreads", "queueSize"))
                assertTrue(json.get(key) instanceof Number, twin + " /pool lacks " + key + ": " + r.body());
            // the scheduler's figures: numbers from JDK 24 on, "n/a" before (no VirtualThreadSchedulerMXBean)
            for (String key : List.of("vtParallelism", "vtPoolSize", "vtMounted", "vtQueued"))
                assertTrue(Runtime.version().feature() >= 24 ? json.get(key) instanceof Number : "n/a".equals(json.get(key)),
                        twin + " /pool's " + key + " on JDK " + Runtime.version().feature() + ": " + r.body());
            pools.put(twin, json);
        }
        assertEquals(new TreeSet<>(keys(pools.get(Twin.JAVA))), new TreeSet<>(keys(pools.get(Twin.KOTLIN))));
        assertEquals(List.copyOf(keys(pools.get(Twin.JAVA))), List.copyOf(keys(pools.get(Twin.KOTLIN))), "same field order");
    }

    /** qtp:MIN-MAX's /pool in both twins: its bounds, the threads it holds now between them, the same fields in the same order. */
    @Test
    void aGrowingPoolReportsItsBoundsTheSameInBothTwins() {
        Map<Twin, Map<?, ?>> pools = new LinkedHashMap<>();
        List<Javalin> started = new java.util.ArrayList<>();
        try {
            for (Twin twin : Twin.values()) {
                Javalin app = twin.start(Twin.options("qtp:8-200"));
                started.add(app);
                HttpResponse<String> r = Http.get("http://127.0.0.1:" + app.port() + "/pool");
                assertEquals(200, r.statusCode());
                Map<?, ?> json = (Map<?, ?>) Json.parse(r.body());
                assertEquals("qtp:8-200", json.get("kind"), r.body());
                assertEquals(8, ((Number) json.get("minThreads")).intValue(), r.body());
                assertEquals(200, ((Number) json.get("maxThreads")).intValue(), r.body());
                int threads = ((Number) json.get("threads")).intValue();
                assertTrue(threads >= 8 && threads < 200, twin + " holds its threads between its bounds, not all 200: " + r.body());
                pools.put(twin, json);
            }
        } finally {
            Stops.stopAll(started);
        }
        assertEquals(List.copyOf(keys(pools.get(Twin.JAVA))), List.copyOf(keys(pools.get(Twin.KOTLIN))), "same fields in the same order");
    }

    private static java.util.Set<String> keys(Map<?, ?> map) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        map.keySet().forEach(k -> out.add((String) k));
        return out;
    }

    @Test
    void noAnswerNamesTheServerVersion() {
        for (Twin twin : Twin.values()) {
            HttpResponse<String> r = Http.get("http://127.0.0.1:" + SERVERS.get(twin).port() + "/computational");
            assertFalse(r.headers().firstValue("Server").isPresent(), r.headers().toString());
            assertFalse(r.headers().firstValue("X-Powered-By").isPresent(), r.headers().toString());
        }
    }
}
