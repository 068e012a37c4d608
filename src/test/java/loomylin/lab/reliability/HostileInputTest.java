package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import loomylin.testing.TestData;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import loomylin.server.admin.AdminOptions;
import loomylin.server.admin.AdminServer;
import loomylin.server.admin.Watched;
import loomylin.server.backend.Backend;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.web.FileBody;
import loomylin.server.web.Limits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every route and parameter against a table of hostile values plus a few hundred random ones (fixed seed,
 * so a failure reproduces): empty, negative, huge, non-numeric, repeated, unicode, percent-encoded junk,
 * odd paths and methods. Every answer is 200, or 400/404 with one line of plain text; never a 5xx, never
 * a stack trace or an HTML page; every answer comes fast (a bad bound is refused before any work).
 * The only other statuses are Jetty's protocol answers where they are the right ones: 426 for
 * HTTP/2.0 and 505 for HTTP/9.9 or HTTP/0.9 request lines, 405 where a method is not allowed.
 */
@Isolated("it asserts the README's 5 s bound on every answer, which other test classes' load must not eat")
class HostileInputTest {
    static final long SEED = 20_260_511L;
    static final int RANDOM_CASES = 300;
    static final Duration FAST = Duration.ofSeconds(5);

    static Backend backend;
    static final Map<Twin, Javalin> servers = new EnumMap<>(Twin.class);

    @BeforeAll
    static void start() {
        backend = Backend.start("127.0.0.1", 0, 0, Backend.Fault.NONE);
        for (Twin twin : Twin.values()) {
            ServerOptions o = Twin.options("loom").withBackend(URI.create("http://127.0.0.1:" + backend.port()));
            servers.put(twin, twin.start(o));
        }
    }

    @AfterAll
    static void stop() {
        List<Object> all = new ArrayList<>(servers.values());
        all.add(backend);
        Stops.stopAll(all);
    }

    /** A route, its numeric parameter and its upper bound. */
    record Route(String path, String param, int max) {
    }

    static final List<Route> ROUTES = List.of(
            new Route("/computational", "iterations", Limits.ITERATIONS_MAX),
            new Route("/wait-blocking", "ms", Limits.MS_MAX),
            new Route("/wait-async", "ms", Limits.MS_MAX),
            new Route("/wait-locked", "ms", Limits.MS_MAX),
            new Route("/hops-blocking", "delay", Limits.DELAY_MAX),
            new Route("/hops-async", "delay", Limits.DELAY_MAX),
            new Route("/mixed", "cpu", Limits.CPU_MAX), new Route("/mixed", "sleep", Limits.MS_MAX), new Route("/mixed", "file", TestData.BYTES),
            new Route("/mixed-async", "cpu", Limits.CPU_MAX), new Route("/mixed-async", "sleep", Limits.MS_MAX),
            new Route("/mixed-async", "file", TestData.BYTES));

    static final Set<Integer> OK = Set.of(200);
    static final Set<Integer> BAD = Set.of(400);
    static final Set<Integer> OK_OR_BAD = Set.of(200, 400);
    static final Set<Integer> NOT_FOUND_OR_BAD = Set.of(400, 404);

    /** Raw query values (as they go on the wire) and what they must get. */
    static final List<Map.Entry<String, Set<Integer>>> VALUES = List.of(
            Map.entry("0", OK), Map.entry("1", OK), Map.entry("00", OK), Map.entry("%31", OK),
            Map.entry("", BAD), Map.entry("-1", BAD), Map.entry("-0", BAD), Map.entry("+1", BAD), Map.entry("%2B1", BAD),
            Map.entry("99999999999", BAD), Map.entry("2147483648", BAD), Map.entry("18446744073709551616", BAD),
            Map.entry("1" + "0".repeat(5000), BAD), Map.entry("a".repeat(5000), BAD),
            Map.entry("abc", BAD), Map.entry("1.5", BAD), Map.entry("1e3", BAD), Map.entry("0x10", BAD), Map.entry("NaN", BAD),
            Map.entry("Infinity", BAD), Map.entry("null", BAD), Map.entry("true", BAD), Map.entry("[]", BAD), Map.entry("%7B%7D", BAD),
            Map.entry("%201", BAD), Map.entry("1%20", BAD), Map.entry("1%", BAD), Map.entry("%", BAD), Map.entry("%ZZ", BAD),
            Map.entry("%2", BAD), Map.entry("%00", BAD), Map.entry("1%00", BAD), Map.entry("%0D%0AX-Injected:%201", BAD),
            Map.entry("%C3%A9", BAD), Map.entry("\u00e9", BAD), Map.entry("%D9%A3", BAD), Map.entry("\u0663", BAD),
            Map.entry("%EF%BC%91", BAD), Map.entry("\uff11", BAD), Map.entry("%E2%80%8B1", BAD), Map.entry("%FF%FE", BAD),
            Map.entry("%C0%B1", BAD), Map.entry("%F0%9F%92%A9", BAD), Map.entry("\ud83d\udca9", BAD),
            Map.entry("%24%7Bjndi%3Aldap%3A%2F%2Fx%7D", BAD), Map.entry("%3Cscript%3Ealert(1)%3C%2Fscript%3E", BAD),
            Map.entry("..%2F..%2Fetc%2Fpasswd", BAD), Map.entry("'%20OR%201=1--", BAD), Map.entry("1;2", BAD), Map.entry("1,2", BAD));

    /** Query shapes that repeat or mangle the parameter: PARAM is the route's parameter name. */
    static final List<Map.Entry<String, Set<Integer>>> SHAPES = List.of(
            Map.entry("PARAM=1&PARAM=2", BAD), Map.entry("PARAM=1&PARAM=1", BAD), Map.entry("PARAM=&PARAM=", BAD),
            Map.entry("PARAM", BAD), Map.entry("PARAM=1&other=%ZZ", BAD), Map.entry("PARAM=1&&&", OK),
            Map.entry("PARAM=1&=2", OK), Map.entry("PARAM=1&unknown=abc", OK), Map.entry("ENCODED=1", OK),
            Map.entry("PARAM[]=1", OK), Map.entry("PARAM=1#fragment", OK));

    /** Whole request targets and methods that are not the routes' business. */
    static final List<Map.Entry<String, Set<Integer>>> REQUESTS = List.of(
            Map.entry("GET / HTTP/1.1", Set.of(404)), Map.entry("GET /nope HTTP/1.1", Set.of(404)),
            Map.entry("GET /COMPUTATIONAL HTTP/1.1", Set.of(404)), Map.entry("GET /computational/ HTTP/1.1", OK),
            Map.entry("GET //computational HTTP/1.1", NOT_FOUND_OR_BAD), Map.entry("GET /computational%00 HTTP/1.1", NOT_FOUND_OR_BAD),
            Map.entry("GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1", NOT_FOUND_OR_BAD), Map.entry("GET /../../etc/passwd HTTP/1.1", NOT_FOUND_OR_BAD),
            Map.entry("GET /%C0%AE%C0%AE/ HTTP/1.1", NOT_FOUND_OR_BAD), Map.entry("GET /pool/../pool HTTP/1.1", Set.of(200, 400, 404)),
            Map.entry("GET /wait-blocking;jsessionid=x?ms=1 HTTP/1.1", NOT_FOUND_OR_BAD), Map.entry("GET /\u00fcn\u00efc\u00f8d\u00e9 HTTP/1.1", NOT_FOUND_OR_BAD),
            Map.entry("GET /%F0%9F%92%A9 HTTP/1.1", NOT_FOUND_OR_BAD), Map.entry("GET /" + "x".repeat(6000) + " HTTP/1.1", NOT_FOUND_OR_BAD),
            Map.entry("GET * HTTP/1.1", BAD), Map.entry("GET http://elsewhere/pool HTTP/1.1", Set.of(200, 400)),
            Map.entry("GET /pool?reset=maybe HTTP/1.1", BAD), Map.entry("GET /pool?reset=true&reset=false HTTP/1.1", OK_OR_BAD),
            Map.entry("GET /pool?%ZZ HTTP/1.1", BAD), Map.entry("POST /computational HTTP/1.1", Set.of(404, 405)),
            Map.entry("PUT /pool HTTP/1.1", Set.of(404, 405)), Map.entry("DELETE /pool HTTP/1.1", Set.of(404, 405)),
            Map.entry("TRACE / HTTP/1.1", Set.of(404, 405)), Map.entry("OPTIONS * HTTP/1.1", Set.of(200, 400, 404, 405)),
            Map.entry("HEAD /pool HTTP/1.1", OK), Map.entry("BREW /pot HTTP/1.1", Set.of(400, 404, 405)),
            Map.entry("GET /pool HTTP/2.0", Set.of(400, 426)), Map.entry("GET /pool HTTP/9.9", Set.of(400, 505)),
            Map.entry("GET /pool", Set.of(400, 505)), Map.entry("GET", BAD), Map.entry("\u0000\u0001\u0002", BAD));

    /** Pieces the random values are made of. */
    static final String[] PIECES = {"0", "1", "7", "9", "-", "+", "%", "%2", "%ZZ", "%00", "%FF", "%C3", "%A9", "%31", "%2F", "%26",
            "&", "=", ";", ",", ".", "e", "x", "\u00e9", "\u0663", "\uff11", "\u200b", "'", "\"", "<", ">", "{", "}", "|", "\\", "^", "`",
            "#", "?", "/", "..", "NaN", "%0A", "%0D", "%20", "~", "*", "(", ")", "!", "$", "@", ":"};

    @ParameterizedTest
    @EnumSource(Twin.class)
    void everyHostileInputGetsAnHonestOneLineAnswerFast(Twin twin) throws IOException {
        int port = servers.get(twin).port();
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (Route r : ROUTES) {
            for (Map.Entry<String, Set<Integer>> v : VALUES) {
                cases++;
                check(port, "GET " + r.path() + "?" + r.param() + "=" + v.getKey() + " HTTP/1.1", v.getValue(), failures);
            }
            for (String over : List.of(String.valueOf(r.max() + 1L), String.valueOf(Integer.MAX_VALUE), String.valueOf(r.max() * 10L))) {
                cases++;
                check(port, "GET " + r.path() + "?" + r.param() + "=" + over + " HTTP/1.1", BAD, failures);
            }
            for (Map.Entry<String, Set<Integer>> s : SHAPES) {
                cases++;
                String encoded = "%" + Integer.toHexString(r.param().charAt(0)) + r.param().substring(1); // m%73 for ms
                check(port, "GET " + r.path() + "?" + s.getKey().replace("ENCODED", encoded).replace("PARAM", r.param()) + " HTTP/1.1",
                        s.getValue(), failures);
            }
        }
        for (Map.Entry<String, Set<Integer>> q : REQUESTS) {
            cases++;
            check(port, q.getKey(), q.getValue(), failures);
        }
        Random random = new Random(SEED);
        for (int i = 0; i < RANDOM_CASES; i++) {
            Route r = ROUTES.get(random.nextInt(ROUTES.size()));
            StringBuilder value = new StringBuilder();
            for (int n = random.nextInt(8); n >= 0; n--) value.append(PIECES[random.nextInt(PIECES.length)]);
            String name = random.nextInt(10) == 0 ? PIECES[random.nextInt(PIECES.length)] + r.param() : r.param();
            if (slowButValid(r, value.toString())) continue; // a valid 59-second wait is not hostile, just slow
            cases++;
            check(port, "GET " + r.path() + "?" + name + "=" + value + " HTTP/1.1", Set.of(200, 400), failures);
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + cases + " cases failed on " + twin + ":\n" + String.join("\n", failures));
        RawHttp.Answer pool = RawHttp.get(port, "/pool");
        assertTrue(pool.body().contains("\"responses5xx\":0,"), "no 5xx at all: " + pool);
    }

    /** Would this value pass validation and then make the request wait more than a moment? */
    private static boolean slowButValid(Route r, String raw) {
        if (r.path().equals("/computational") || r.param().equals("file")) return false; // a third of a second; 1 MB from the page cache
        String decoded;
        try {
            decoded = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        long slowAbove = r.param().equals("cpu") ? 100_000 : 200; // SHA-256 iterations, or ms
        return decoded.matches("\\d{1,10}") && Long.parseLong(decoded) > slowAbove && Long.parseLong(decoded) <= r.max();
    }

    private static void check(int port, String requestLine, Set<Integer> allowed, List<String> failures) {
        String shown = requestLine.length() > 120 ? requestLine.substring(0, 120) + "..." : requestLine;
        String request = requestLine + "\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n";
        RawHttp.Answer a;
        try {
            a = RawHttp.exchange(port, request, FAST.plusSeconds(10));
        } catch (IOException e) {
            failures.add(shown + " -> no answer: " + e);
            return;
        }
        String body = a.body();
        List<String> wrong = new ArrayList<>();
        if (!allowed.contains(a.status())) wrong.add("status " + a.status() + " not in " + allowed);
        if (a.status() >= 500 && !allowed.contains(a.status())) wrong.add("server error");
        if (a.millis() > FAST.toMillis()) wrong.add("took " + a.millis() + " ms");
        if (a.status() != 200) {
            String type = String.valueOf(a.header("Content-Type")).toLowerCase(Locale.ROOT);
            if (!body.isEmpty() && !type.startsWith("text/plain")) wrong.add("content type " + type);
            if (body.strip().contains("\n")) wrong.add("more than one line");
            if (body.length() > 400) wrong.add("body of " + body.length() + " characters");
        }
        String lower = body.toLowerCase(Locale.ROOT);
        boolean bytes = a.status() == 200 && String.valueOf(a.header("Content-Type")).startsWith(FileBody.TYPE); // random data, not text
        if (!bytes && (lower.contains("exception") || body.contains("\tat ") || lower.contains("<html"))) wrong.add("stack trace or HTML page");
        if (a.has("X-Powered-By") || (a.has("Server") && a.header("Server").matches(".*\\d.*"))) wrong.add("server version header");
        if (!wrong.isEmpty()) failures.add(shown + " -> " + String.join(", ", wrong) + ": " + a);
    }

    @ParameterizedTest
    @EnumSource(Twin.class)
    void theLargestBoundsAreRefusedBeforeAnyWork(Twin twin) throws IOException {
        int port = servers.get(twin).port();
        for (String target : List.of("/computational?iterations=99999999999", "/wait-blocking?ms=60001", "/wait-async?ms=99999999",
                "/hops-blocking?delay=60001", "/hops-async?delay=4294967296", "/mixed?cpu=1000001", "/mixed-async?cpu=99999999999",
                "/mixed?sleep=60001", "/mixed-async?sleep=4294967296", "/mixed?file=" + (TestData.BYTES + 1), "/mixed-async?file=2147483648")) {
            RawHttp.Answer a = RawHttp.get(port, target, FAST);
            assertEquals(400, a.status(), target + ": " + a);
            assertTrue(a.millis() < 2_000, target + " refused at once, took " + a.millis() + " ms");
            assertTrue(a.body().startsWith(target.substring(target.indexOf('?') + 1, target.indexOf('=')) + " must be a whole number"), a.body());
        }
    }

    /**
     * Hostile race requests to an admin port watching this twin's server, each a one-line 403 that starts no race:
     * a form post from another site, an opaque (null) origin, another port's or scheme's origin, fetch metadata
     * saying cross-site, no Origin at all, a DNS-rebinding page's Host (also on /live). Drip-fed headers on both
     * twins' servers are in ProtocolEdgeTest.
     */
    @ParameterizedTest
    @EnumSource(Twin.class)
    void noOtherSiteCanStartARace(Twin twin) throws IOException {
        Javalin server = servers.get(twin);
        AdminOptions options = AdminOptions.loopback()
                .withServer(new Watched(server.port(), "loom", server.jettyServer().server()));
        AdminServer admin = AdminServer.start(options);
        try {
            int port = admin.port();
            String own = "127.0.0.1:" + port;
            String form = "route=/wait-blocking&value=10&concurrency=2&seconds=1";
            List<String> hostile = List.of(
                    "Host: " + own + "\r\nOrigin: http://evil.example",
                    "Host: " + own + "\r\nOrigin: null",
                    "Host: " + own + "\r\nOrigin: http://127.0.0.1:" + (port == 65535 ? 1 : port + 1),
                    "Host: " + own + "\r\nOrigin: https://" + own,
                    "Host: " + own + "\r\nSec-Fetch-Site: cross-site",
                    "Host: " + own + "\r\nSec-Fetch-Site: same-site",
                    "Host: " + own,
                    "Host: rebound.evil.example:" + port + "\r\nOrigin: http://rebound.evil.example:" + port,
                    "Host: " + own + "\r\nHost: evil.example\r\nOrigin: http://" + own);
            List<String> failures = new ArrayList<>();
            for (String headers : hostile) {
                for (String path : List.of("/race", "/race/stop")) {
                    RawHttp.Answer a = RawHttp.exchange(port, "POST " + path + " HTTP/1.1\r\n" + headers
                            + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
                            + "\r\nConnection: close\r\n\r\n" + form, FAST);
                    boolean oneLine = a.body().endsWith("\n") && a.body().indexOf('\n') == a.body().length() - 1;
                    if (!Set.of(400, 403).contains(a.status()) || !oneLine) failures.add(path + " with " + headers.replace("\r\n", " | ") + " -> " + a);
                }
            }
            RawHttp.Answer live = RawHttp.exchange(port, "GET /live HTTP/1.1\r\nHost: rebound.evil.example:" + port + "\r\nConnection: close\r\n\r\n", FAST);
            if (live.status() != 403) failures.add("/live with a rebound Host -> " + live);
            assertTrue(failures.isEmpty(), String.join("\n", failures));
            assertEquals("null", RawHttp.get(port, "/race").body(), "no race ever started");
        } finally {
            admin.close();
        }
    }
}
