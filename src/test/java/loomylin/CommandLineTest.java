package loomylin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import loomylin.cli.Flags;
import loomylin.cli.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The jar's command line, run in real child JVMs: help, mistakes, port in use, SIGTERM. */
class CommandLineTest {

    @Test
    void helpListsEveryFlagAndExitsZero() throws Exception {
        try (Child c = Child.start("--help")) {
            assertEquals(0, c.exit(Duration.ofSeconds(20)));
            for (Flags.Flag f : Launcher.FLAGS) assertTrue(c.output().contains("--" + f.name()), "--help lacks --" + f.name());
            for (String kind : new String[] {"qtp:N", "loom", "jetty-vtp", "qtp-vt:N", "LOOMYLIN_POOLS", "bench", "backend"})
                assertTrue(c.output().contains(kind), "--help lacks " + kind);
        }
        try (Child c = Child.start("backend", "--help")) {
            assertEquals(0, c.exit(Duration.ofSeconds(20)));
            assertTrue(c.output().contains("--delay"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--pools qtp:x        | unknown pool 'qtp:x'",
            "--pools qtp          | pool 'qtp' needs a size",
            "--pools loom:3       | pool 'loom' takes no size",
            "--pools qtp:2        | pool size in 'qtp:2' must be from 3 to 20000 (Jetty keeps 2 for its acceptor and selector)",
            "--frobnicate         | unknown flag --frobnicate",
            "--port 99999         | --port must be a whole number from 0 to 65535, got '99999'",
            "--twin scala         | --twin must be java or kotlin",
            "--backend ftp://x    | --backend must be an http URL",
            "--pool 7009=loom     | --pool 7009=...: no server on that port",
            "--hop-client okhttp  | --hop-client must be one of jdk, url, jetty, got 'okhttp'",
            "clients --model fork | --model must be one of nio, threads, virtual, got 'fork'",
            "clients --model nio --connections 0 | --connections must be a whole number from 1 to 1000000",
            "clients --model nio --target ftp://x | --target must be an http URL",
            "clients --model nio --source-addresses 127.0.0.9-127.0.0.2 | --source-addresses range 127.0.0.9-127.0.0.2 runs backwards",
            "backend --delay -5   | --delay must be a whole number from 0 to 60000",
            "backend --fault fire | --fault must be one of none, error, malformed, close"})
    void aMistakeIsOneLineAndExitStatus2(String args, String message) throws Exception {
        try (Child c = Child.start(args.trim().split("\\s+"))) {
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
            try (Child c = Child.start("--pools", "loom", "--port", String.valueOf(port), "--backend", "http://127.0.0.1:1")) {
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
        int port = Child.freePort();
        try (Child c = Child.start("--twin", twin, "--pools", "loom", "--port", String.valueOf(port), "--backend-port", "0")) {
            c.awaitOutput("ready", Duration.ofSeconds(30));
            String base = "http://127.0.0.1:" + port;
            assertEquals(twin, Http.field(Http.get(base + "/pool"), "twin"));
            CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(() -> Http.get(base + "/wait-blocking?ms=1500"));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (Http.number(Http.get(base + "/pool"), "inFlight") < 2 && System.nanoTime() < deadline) Thread.sleep(20);
            c.process.destroy(); // SIGTERM
            HttpResponse<String> answer = inFlight.get();
            assertEquals(200, answer.statusCode());
            assertEquals("Hello, World", answer.body());
            assertEquals(0, c.exit(Duration.ofSeconds(8)), c.output());
            assertTrue(c.output().contains("SIGTERM"), c.output());
        }
    }
}
