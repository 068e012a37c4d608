package loomylin.server.agent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import loomylin.server.jetty.PoolKind;
import loomylin.server.json.Json;
import loomylin.testing.ChildJvm;
import loomylin.testing.Http;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent on applications Loomylin does not contain: {@link EmbeddedJettyApp} and {@link JavalinApp}, each packaged
 * as its users package it ({@link TheirJar}) and run as {@code java -javaagent:target/loomylin.jar=pool=KIND,admin=0
 * -jar their-app.jar 0} in a child JVM on every pool kind. On each, the pool really changed: the agent's one line
 * names the pool the application gave and the one put in, every route runs on a thread of the new pool (virtual on
 * the virtual kinds, a platform thread on {@code qtp}), the agent's {@code /pool} shows the pool's size as asked
 * and {@code /metrics} its threads under Loomylin's names; and a burst of concurrent requests is answered 200, every
 * one. An unknown kind, bad arguments and a Jetty other than 12.1 get one line and leave the application on its own
 * pool; an application that never builds a Jetty server hears nothing. On JDK 21, a route that blocks inside
 * {@code synchronized} shows in the agent's pinned count, placed in the application's code.
 */
@IntegrationTest
class AgentTest {
    static final Path AGENT = Path.of("target", "loomylin.jar");
    static final List<String> KINDS = List.of("qtp:8", "qtp:4-16", "loom", "jetty-vtp", "jetty-vtp:50", "qtp-vt:8", "qtp-vtp:8:50");
    static final Pattern LISTENING = Pattern.compile("listening on port (\\d+)");
    static final Pattern ADMIN = Pattern.compile(Pattern.quote(Agent.PREFIX) + "admin port (\\d+)");
    static final Pattern ANSWER = Pattern.compile("virtual=(true|false) thread=(\\S+)\\n");
    static final int BURST = 24;
    static final Duration START = Duration.ofSeconds(90);

    /** The two applications, and how the agent names the pool each gives its server. */
    enum App {
        EMBEDDED_JETTY(EmbeddedJettyApp.class, TheirJar.JETTY, "(none given: Jetty's default QueuedThreadPool, 8 to 200 threads)"),
        JAVALIN(JavalinApp.class, TheirJar.JAVALIN, "QueuedThreadPool 'JettyServerThreadPool' (8 to 250 threads)");

        final Class<?> main;
        final List<String> libraries;
        final String ownPool;
        Path jar;

        App(Class<?> main, List<String> libraries, String ownPool) {
            this.main = main;
            this.libraries = libraries;
            this.ownPool = ownPool;
        }
    }

    @TempDir
    static Path dir;

    @BeforeAll
    static void packageTheApplications() throws IOException {
        assertTrue(Files.isRegularFile(AGENT), "no " + AGENT + ": it is made by ./mvnw package, before the integration tests");
        for (App app : App.values()) {
            app.jar = TheirJar.write(dir.resolve(app.name().toLowerCase() + "-app.jar"), app.main, TheirJar.libraries(app.libraries));
        }
    }

    static Stream<Arguments> everyApplicationOnEveryKind() {
        return Stream.of(App.values()).flatMap(app -> KINDS.stream().map(kind -> Arguments.of(app, kind)));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("everyApplicationOnEveryKind")
    void runsTheApplicationOnTheAskedPool(App app, String spec) throws Exception {
        PoolKind kind = PoolKind.parse(spec);
        boolean virtual = kind.type() != PoolKind.Type.QTP;
        String threads = "loomylin-" + kind.type().label + "-1-"; // the agent's first server's pool, as it names it
        try (ChildJvm child = ChildJvm.command("-javaagent:" + AGENT + "=pool=" + spec + ",admin=0", "-jar", app.jar.toString(), "0").start()) {
            String base = "http://127.0.0.1:" + port(child, LISTENING);
            String admin = "http://127.0.0.1:" + port(child, ADMIN);
            List<String> lines = agentLines(child);
            assertEquals(2, lines.size(), "the pool line and the admin port's:\n" + child.output());
            assertEquals(Agent.PREFIX + "Jetty server 1's pool " + app.ownPool + " replaced by " + spec + " (" + kind.describe() + ")", lines.get(0));

            for (String route : List.of("/wait?ms=20", "/compute?rounds=20000")) {
                Matcher served = served(Http.get(base + route), route);
                assertEquals(virtual, Boolean.parseBoolean(served.group(1)), route + " on " + spec + ": " + served.group(0));
                assertTrue(served.group(2).startsWith(threads), route + " ran on " + served.group(2) + ", not on the agent's pool " + threads + "*");
            }
            List<HttpResponse<String>> burst = Http.concurrently(BURST, base + "/wait?ms=100");
            for (HttpResponse<String> r : burst) {
                Matcher served = served(r, "/wait?ms=100");
                assertEquals(virtual, Boolean.parseBoolean(served.group(1)), served.group(0));
            }

            HttpResponse<String> pool = Http.get(admin + AgentAdmin.POOL);
            assertEquals(200, pool.statusCode(), pool.body());
            List<?> servers = (List<?>) Http.field(pool, "servers");
            assertEquals(1, servers.size(), pool.body());
            Map<?, ?> server = (Map<?, ?>) servers.get(0);
            assertEquals(spec, server.get("kind"), pool.body());
            assertEquals(app.ownPool, server.get("replaced"), pool.body());
            assertEquals(Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)), number(server, "port"), pool.body());
            assertEquals(virtual, server.get("virtualThreads"), pool.body());
            assertTheSizeAsAsked(kind, server, pool.body());

            HttpResponse<String> metrics = Http.get(admin + AgentAdmin.METRICS);
            assertEquals(200, metrics.statusCode());
            String labels = "{pool=\"" + spec + "\",port=\"" + number(server, "port") + "\"";
            assertTrue(metrics.body().contains("loomylin_server_info" + labels + "}"), metrics.body());
            assertTrue(metrics.body().contains("loomylin_pool_threads" + labels + ",state=\"platform\"}"), metrics.body());
            assertTrue(metrics.body().contains("loomylin_virtual_threads_pinned_total "), metrics.body());
        }
    }

    /** The pool's own figures, read back through /pool, are the kind's: sizes, caps, a growing pool within its bounds. */
    private static void assertTheSizeAsAsked(PoolKind kind, Map<?, ?> f, String body) {
        switch (kind.type()) {
            case QTP -> {
                assertEquals(kind.size(), number(f, "maxThreads"), body);
                if (kind.grows()) {
                    assertEquals(kind.min(), number(f, "minThreads"), body);
                    long now = number(f, "threads");
                    assertTrue(now > kind.min() && now <= kind.size(), "a burst of " + BURST + " grows " + kind + " past its " + kind.min() + " threads, never past " + kind.size() + ": " + body);
                } else {
                    assertEquals(kind.size(), number(f, "minThreads"), body);
                    assertEquals(kind.size(), number(f, "threads"), body);
                }
            }
            case QTP_VT -> assertEquals(kind.size(), number(f, "maxThreads"), body);
            case QTP_VTP -> {
                assertEquals(kind.size(), number(f, "maxThreads"), body);
                assertEquals(kind.cap(), number(f, "maxConcurrentTasks"), body);
            }
            case JETTY_VTP -> assertEquals(kind.size(), number(f, "maxConcurrentTasks"), body);
            case LOOM -> {
                assertEquals("LoomThreadPool", f.get("pool"), body);
                assertTrue(number(f, "virtualThreadsStarted") >= BURST, body);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(App.class)
    void anUnknownKindIsOneLineAndTheApplicationRunsAsItWas(App app) throws Exception {
        try (ChildJvm child = ChildJvm.command("-javaagent:" + AGENT + "=pool=qtp-banana,admin=0", "-jar", app.jar.toString(), "0").start()) {
            assertOnItsOwnPool(child);
            assertEquals(List.of(Agent.PREFIX + "unknown pool 'qtp-banana', expected " + PoolKind.HELP + "; the application runs unchanged"), agentLines(child));
        }
    }

    @Test
    void badArgumentsAreOneLineAndTheApplicationRunsAsItWas() throws Exception {
        try (ChildJvm child = ChildJvm.command("-javaagent:" + AGENT + "=pool=loom,admin=seven", "-jar", App.JAVALIN.jar.toString(), "0").start()) {
            assertOnItsOwnPool(child);
            assertEquals(List.of(Agent.PREFIX + "admin port 'seven' must be from 0 (a free port) to 65535; the application runs unchanged"), agentLines(child));
        }
    }

    @Test
    void aJettyOtherThan12Point1IsOneLineAndTheApplicationRunsAsItWas() throws Exception {
        List<Path> libraries = TheirJar.libraries(TheirJar.JETTY);
        Path util = libraries.stream().filter(p -> p.getFileName().toString().startsWith("jetty-util-")).findFirst().orElseThrow();
        Path relabelled = TheirJar.relabelled(util, "12.0.99", dir.resolve("jetty-util-12.0.99.jar"));
        Path jar = TheirJar.write(dir.resolve("jetty-12.0-app.jar"), EmbeddedJettyApp.class, TheirJar.replacingJettyUtil(libraries, relabelled));
        try (ChildJvm child = ChildJvm.command("-javaagent:" + AGENT + "=pool=loom,admin=0", "-jar", jar.toString(), "0").start()) {
            assertOnItsOwnPool(child);
            assertEquals(List.of(Agent.PREFIX + "Jetty 12.0.99 is not supported (the agent runs Jetty 12.1 servers): its servers keep their own pool"),
                    agentLines(child));
        }
    }

    /**
     * An application whose Jetty comes from a class loader of its own that looks there first (as a web-app loader
     * does): the agent's pools would be made of the class path's Jetty classes, not of the server's, so it leaves the
     * server alone in one line.
     */
    @Test
    void aServerFromAnotherClassLoadersJettyIsOneLineAndRunsAsItWas() throws Exception {
        Path launcher = TheirJar.write(dir.resolve("launcher.jar"), ChildFirstLauncher.class, List.of(), List.of(ChildFirstLauncher.class));
        try (ChildJvm child = ChildJvm.command("-javaagent:" + AGENT + "=pool=loom,admin=0", "-jar", launcher.toString(),
                App.EMBEDDED_JETTY.jar.toString(), EmbeddedJettyApp.class.getName(), "0").start()) {
            assertOnItsOwnPool(child);
            List<String> lines = agentLines(child);
            assertEquals(1, lines.size(), child.output());
            assertTrue(lines.get(0).startsWith(Agent.PREFIX + "Jetty's Server comes from class loader 'child-first' (" + ChildFirstLauncher.class.getName() + "$"), lines.get(0));
            assertTrue(lines.get(0).endsWith("not from the class path the agent's pools link to (a class loader that looks in its own jars first, as an application server's does): its servers keep their own pool"),
                    lines.get(0));
        }
    }

    @Test
    void anApplicationThatBuildsNoJettyServerHearsNothing() throws Exception {
        try (ChildJvm child = ChildJvm.command("-javaagent:" + AGENT + "=pool=loom,admin=0", "-cp", App.EMBEDDED_JETTY.jar.toString(), PlainApp.class.getName()).start()) {
            assertEquals(0, child.exit(START), child.output());
            assertTrue(child.output().contains("plain app computed"), child.output());
            assertEquals(List.of(), agentLines(child));
        }
    }

    /**
     * On JDK 21 a virtual thread that blocks inside {@code synchronized} pins its carrier: the agent's
     * {@code /metrics} counts every such request, and {@code /pool} places the pins in the application's route.
     */
    @Test
    void pinsOnJdk21ShowInTheAgentsFigures() throws Exception {
        String java21 = jdk21();
        int requests = 5;
        try (ChildJvm child = ChildJvm.command("-javaagent:" + AGENT + "=pool=loom,admin=0", "-jar", App.EMBEDDED_JETTY.jar.toString(), "0")
                .java(java21).start()) {
            String base = "http://127.0.0.1:" + port(child, LISTENING);
            String admin = "http://127.0.0.1:" + port(child, ADMIN);
            for (int i = 0; i < requests; i++) assertEquals("true", served(Http.get(base + "/wait-locked?ms=50"), "/wait-locked").group(1));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> metric(Http.get(admin + AgentAdmin.METRICS).body(),
                    "loomylin_virtual_threads_pinned_total") >= requests);
            assertTrue(metric(Http.get(admin + AgentAdmin.METRICS).body(), "loomylin_virtual_threads_pinned_seconds_total") > 0);
            HttpResponse<String> pool = Http.get(admin + AgentAdmin.POOL);
            List<?> where = (List<?>) Http.field(pool, "pinnedWhere");
            assertTrue(where.stream().anyMatch(w -> w.toString().contains(EmbeddedJettyApp.class.getName() + "$")), pool.body());
        }
    }

    /** A JDK 21 {@code java} from scripts/jdk21.sh; the test is skipped, in one line, where there is none. */
    private static String jdk21() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("scripts/jdk21.sh").redirectError(ProcessBuilder.Redirect.PIPE).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        assumeTrue(done && p.exitValue() == 0 && !out.isEmpty(), () -> "needs a JDK 21: scripts/jdk21.sh said " + err.lines().reduce((a, b) -> b).orElse("nothing"));
        return out;
    }

    /** The application serves its routes on its own pool's platform threads, none of them the agent's. */
    private static void assertOnItsOwnPool(ChildJvm child) {
        String base = "http://127.0.0.1:" + port(child, LISTENING);
        for (HttpResponse<String> r : List.of(Http.get(base + "/wait?ms=20"), Http.get(base + "/compute"))) {
            Matcher served = served(r, "a route");
            assertEquals("false", served.group(1), served.group(0));
            assertFalse(served.group(2).startsWith("loomylin-"), served.group(0));
        }
    }

    private static Matcher served(HttpResponse<String> r, String route) {
        assertEquals(200, r.statusCode(), route + ": " + r.body());
        Matcher m = ANSWER.matcher(r.body());
        assertTrue(m.matches(), route + " answered " + r.body());
        return m;
    }

    /** The port a line of the child's says, once it has said it. */
    private static int port(ChildJvm child, Pattern line) {
        await().atMost(START).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (!child.process().isAlive()) throw new AssertionError("exited " + child.process().exitValue() + ":\n" + child.output());
            return line.matcher(child.output()).find();
        });
        Matcher m = line.matcher(child.output());
        assertTrue(m.find());
        return Integer.parseInt(m.group(1));
    }

    private static List<String> agentLines(ChildJvm child) {
        return child.output().lines().filter(l -> l.contains(Agent.PREFIX)).toList();
    }

    private static long number(Map<?, ?> figures, String name) {
        Object v = figures.get(name);
        assertTrue(v instanceof Number, name + " is " + v + " in " + Json.write(figures));
        return ((Number) v).longValue();
    }

    /** A sample without labels from a Prometheus text page. */
    private static double metric(String page, String name) {
        return page.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in\n" + page));
    }
}
