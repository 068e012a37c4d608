package loomylin.server.launch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.Flags;
import loomylin.testing.ChildJvm;
import loomylin.testing.Http;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The jar's command line, run in real child JVMs: help, mistakes, port in use, SIGTERM, --port 0, --pool PORT=KIND and
 * LOOMYLIN_POOL_&lt;PORT&gt;, LOOMYLIN_TWIN.
 */
@IntegrationTest
class CommandLineTest {

    @Test
    void helpListsEveryFlagAndExitsZero() throws Exception {
        try (ChildJvm c = ChildJvm.main("--help").start()) {
            assertEquals(0, c.exit(Duration.ofSeconds(20)));
            for (String flag : CommandLines.flagNames(new ServeFlags())) {
                assertTrue(c.output().contains("  " + flag + " ") || c.output().contains("  " + flag + "\n"), "--help lacks " + flag);
                String variable = Flags.envName(flag.substring(2));
                if (!flag.equals("--help") && !flag.equals("--pool")) assertTrue(c.output().contains("env " + variable + ")"), "--help lacks " + variable);
            }
            for (String kind : new String[] {"qtp:N", "qtp:MIN-MAX", "loom", "jetty-vtp", "qtp-vt:N", "qtp-vtp:N:M", "LOOMYLIN_POOLS", "bench", "backend"})
                assertTrue(c.output().contains(kind), "--help lacks " + kind);
        }
        try (ChildJvm c = ChildJvm.main("backend", "--help").start()) {
            assertEquals(0, c.exit(Duration.ofSeconds(20)));
            for (String flag : CommandLines.flagNames(new BackendCommand.BackendFlags())) assertTrue(c.output().contains("  " + flag), "backend --help lacks " + flag);
            assertTrue(c.output().contains("env LOOMYLIN_FAULT_AT)"), c.output());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--pools qtp:x        | unknown pool 'qtp:x'",
            "--pools qtp          | pool 'qtp' needs a size",
            "--pools loom:3       | pool 'loom' takes no size",
            "--pools qtp:2        | pool size in 'qtp:2' must be from 3 to 20000 (Jetty keeps 2 for its acceptor and selector)",
            "--pools qtp:9-8      | MIN in 'qtp:9-8' must be from 1 to 7, below MAX (a pool of 8 started up front is qtp:8)",
            "--pools qtp:8-       | unknown pool 'qtp:8-', expected qtp:N",
            "--frobnicate         | unknown flag --frobnicate",
            "--port 99999         | --port must be a whole number from 0 to 65535, got '99999'",
            "--twin scala         | --twin must be java or kotlin",
            "--backend ftp://x    | --backend must be an http URL",
            "--pool 7009=loom     | --pool 7009=...: no server on that port",
            "--hop-client okhttp  | --hop-client must be one of jdk, url, jetty, got 'okhttp'",
            "--max-in-flight auto:foo | --max-in-flight takes a whole number from 0 to 10000000 or auto, auto:gradient2, auto:vegas, auto:aimd; got 'auto:foo'",
            "--max-in-flight-wait-ms 200 | --max-in-flight-wait-ms is how long a request waits for --max-in-flight's slot",
            "--header-timeout-ms x | --header-timeout-ms must be a whole number from 0 to 3600000, got 'x'",
            "--race-from evil.example | --race-from takes IP addresses, CIDR ranges (10.0.0.0/8) or gateway",
            "--race-from 10.0.0.0/40 | --race-from 10.0.0.0/40: the prefix must be a whole number from 0 to 32",
            "--admin-hosts http://x | --admin-hosts takes host names",
            "clients --model fork | --model must be one of nio, threads, virtual, got 'fork'",
            "clients --model nio --connections 0 | --connections must be a whole number from 1 to 1000000",
            "clients --model nio --target ftp://x | --target must be an http URL",
            "clients --model nio --source-addresses 127.0.0.9-127.0.0.2 | --source-addresses range 127.0.0.9-127.0.0.2 runs backwards",
            "backend --delay -5   | --delay must be a whole number from 0 to 60000",
            "backend --fault fire | --fault must be one of none, error, malformed, close"})
    void aMistakeIsOneLineAndExitStatus2(String args, String message) throws Exception {
        try (ChildJvm c = ChildJvm.main(args.trim().split("\\s+")).start()) {
            assertEquals(2, c.exit(Duration.ofSeconds(20)), c.output());
            String out = c.output().strip();
            assertTrue(out.startsWith("loomylin: ") && out.contains(message), out);
            assertEquals(1, out.lines().count(), "one line, no stack trace: " + out);
        }
    }

    @Test
    void aPortInUseStopsStartUpNamingThePort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            int port = taken.getLocalPort();
            try (ChildJvm c = ChildJvm.main("--pools", "loom", "--port", String.valueOf(port), "--backend", "http://127.0.0.1:1").start()) {
                assertEquals(1, c.exit(Duration.ofSeconds(30)), c.output());
                String last = c.output().strip().lines().reduce((a, b) -> b).orElse("");
                assertTrue(last.startsWith("loomylin: port already in use") && last.contains(String.valueOf(port)), c.output());
                assertFalse(c.output().contains("\tat "), "no stack trace: " + c.output());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"java", "kotlin"})
    void sigtermLetsInFlightRequestsFinishAndExitsZero(String twin) throws Exception {
        try (ChildJvm c = ChildJvm.main("--twin", twin, "--pools", "loom", "--port", "0", "--host", "127.0.0.1").startReady()) {
            String base = "http://127.0.0.1:" + c.port();
            assertEquals(twin, Http.field(Http.get(base + "/pool"), "twin"));
            CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(() -> Http.get(base + "/wait-blocking?ms=1500"));
            await().atMost(Duration.ofSeconds(10)).until(() -> Http.number(Http.get(base + "/pool"), "inFlight") >= 2);
            c.signal("TERM");
            HttpResponse<String> answer = inFlight.get();
            assertEquals(200, answer.statusCode());
            assertEquals("Hello, World", answer.body());
            assertEquals(0, c.exit(Duration.ofSeconds(8)), c.output());
            assertTrue(c.output().contains("SIGTERM"), c.output());
        }
    }

    @Test
    void port0PutsEveryServerAndTheBackendOnAFreePortAndLogsTheRealOnes() throws Exception {
        try (ChildJvm c = ChildJvm.main("--port", "0", "--host", "127.0.0.1", "--pools", "qtp:4,loom").startReady()) {
            List<Integer> ports = c.serverPorts();
            int backend = c.backendPort();
            assertEquals(2, ports.size(), c.output());
            assertEquals(3, new HashSet<>(List.of(ports.get(0), ports.get(1), backend)).size(), "three different ports: " + c.output());
            for (int port : List.of(ports.get(0), ports.get(1), backend)) assertTrue(port > 1024, c.output());
            assertEquals("qtp:4", Http.field(Http.get("http://127.0.0.1:" + ports.get(0) + "/pool"), "kind"));
            assertEquals("loom", Http.field(Http.get("http://127.0.0.1:" + ports.get(1) + "/pool"), "kind"));
            assertEquals(200, Http.get("http://127.0.0.1:" + backend + "/authenticate", "Bearer demo").statusCode());
            // the servers reach the backend on its real port
            assertEquals(200, Http.get("http://127.0.0.1:" + ports.get(1) + "/hops-async?delay=0").statusCode(), c.output());
            assertTrue(c.output().contains("curl http://localhost:" + ports.get(0) + "/"), "ready names a real port: " + c.output());
        }
    }

    @Test
    void poolFlagAndPoolEnvironmentVariableReplaceOnePortsPool() throws Exception {
        int first = Ports.free();
        // --pool wins over LOOMYLIN_POOL_<PORT> for the same port; each replaces only its own port's pool
        try (ChildJvm c = ChildJvm.main("--port", String.valueOf(first), "--host", "127.0.0.1", "--backend", "http://127.0.0.1:9",
                        "--pools", "qtp:4,qtp:4,qtp:4", "--pool", (first + 1) + "=jetty-vtp", "--pool", (first + 2) + "=qtp-vt:8")
                .env("LOOMYLIN_POOL_" + first, "loom").env("LOOMYLIN_POOL_" + (first + 2), "loom").startReady()) {
            assertEquals(List.of(first, first + 1, first + 2), c.serverPorts(), c.output());
            assertEquals("loom", Http.field(Http.get("http://127.0.0.1:" + first + "/pool"), "kind"));
            assertEquals("jetty-vtp", Http.field(Http.get("http://127.0.0.1:" + (first + 1) + "/pool"), "kind"));
            assertEquals("qtp-vt:8", Http.field(Http.get("http://127.0.0.1:" + (first + 2) + "/pool"), "kind"));
        }
    }

    @Test
    void loomylinTwinChoosesTheKotlinTwin() throws Exception {
        try (ChildJvm c = ChildJvm.servers("--pools", "loom").env("LOOMYLIN_TWIN", "kotlin").startReady()) {
            assertEquals("kotlin", Http.field(Http.get("http://127.0.0.1:" + c.port() + "/pool"), "twin"));
            assertTrue(c.output().contains("(kotlin twin)"), c.output());
        }
    }

    @Test
    void helpNamesThePerPortPoolVariableAndNoVariableNothingReads() throws Exception {
        try (ChildJvm c = ChildJvm.main("--help").start()) {
            assertEquals(0, c.exit(Duration.ofSeconds(20)));
            assertTrue(c.output().contains("LOOMYLIN_POOL_<PORT>"), c.output());
            assertFalse(c.output().matches("(?s).*LOOMYLIN_POOL\\b.*"), "no LOOMYLIN_POOL without a port: " + c.output());
        }
    }
}
