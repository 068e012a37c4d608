package loomylin.lab.experiment.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.Runner;
import loomylin.lab.engine.output.Invocations;
import loomylin.server.agent.Agent;
import loomylin.server.agent.EmbeddedJettyApp;
import loomylin.server.agent.TheirJar;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code advise --app} as a user runs it ({@code java -jar target/loomylin.jar advise --app ... --url ...}) on an
 * application Loomylin does not contain: {@link EmbeddedJettyApp} packaged as its users package it ({@link TheirJar}),
 * its {@code /wait} route blocking on a socket ({@code SlowService}), smoke-sized (20 req/s, 1 s windows, one
 * invocation). Every shape has a row, measured or marked, never missing; the page names each; servers.log has the
 * agent's line for each; no application is left running. No figure or timing is asserted. And each mistake is one
 * line with exit status 2.
 */
@IntegrationTest
class AppAdviseTest {
    static final Path JAR = Path.of("target", "loomylin.jar");

    @Test
    void everyShapeOfTheApplicationIsMeasuredOrMarked(@TempDir Path dir) throws Exception {
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        assertTrue(Files.isRegularFile(JAR), "no " + JAR + ": it is made by ./mvnw package, before the integration tests");
        Path app = TheirJar.write(dir.resolve("their-app.jar"), EmbeddedJettyApp.class, TheirJar.libraries(TheirJar.JETTY));
        int port = freePort();
        Path out = dir.resolve("out");
        String command = ChildJvm.java() + " -Xmx128m -jar '" + app + "' " + port;
        try (ChildJvm advise = ChildJvm.command("-jar", JAR.toString(), "advise", "--app", command, "--url", "http://localhost:" + port + "/wait?ms=20",
                "--rate", "20", "--window", "1s", "--warmup", "1s", "--invocations", "1", "--out", out.toString()).start()) {
            assertEquals(0, advise.exit(Duration.ofMinutes(6)), advise.output());
            System.out.println(advise.output()); // the progress and the page, for the test's report

            List<Map<String, String>> rows = Invocations.rows(out.resolve(AppAdvise.CSV));
            List<String> shapes = List.of(AppAdvise.Shape.DEFAULT, AppAdvise.Shape.LITTLE, AppAdvise.Shape.LOOM, AppAdvise.Shape.PREFERRED);
            assertEquals(shapes, rows.stream().map(r -> r.get("shape")).toList(), "a row per shape, in order:\n" + advise.output());
            for (Map<String, String> r : rows) {
                boolean measured = r.get("failure").isEmpty() && Long.parseLong(r.get("answers")) > 0;
                assertTrue(measured || !r.get("failure").isEmpty(), "measured, or failed saying why: " + r);
                assertEquals("1", r.get(Invocations.COLUMN));
            }
            assertTrue(rows.stream().anyMatch(r -> r.get("failure").isEmpty()), "at least one shape measured:\n" + advise.output());
            assertTrue(rows.get(1).get("pool").matches("qtp:\\d+"), "the Little's-law pool is a fixed platform pool: " + rows.get(1));

            String page = Files.readString(out.resolve(AppAdvise.PAGE));
            assertTrue(advise.output().contains(page.lines().findFirst().orElseThrow()), "the page is printed too");
            for (Map<String, String> r : rows)
                assertTrue(page.contains("| " + r.get("shape") + " | `" + r.get("pool") + "` |"), r.get("shape") + " on the page:\n" + page);
            for (String section : List.of("## Verdict", "## Per run", "## Pins")) assertTrue(page.contains(section), section + " in:\n" + page);

            String log = Files.readString(out.resolve(Runner.SERVERS_LOG));
            for (Map<String, String> r : rows)
                assertTrue(log.contains(Agent.PREFIX + "Jetty server 1's pool (none given: Jetty's default QueuedThreadPool, 8 to 200 threads) replaced by "
                        + r.get("pool") + " ("), "the agent's line for " + r.get("pool") + " in servers.log:\n" + log);
            assertTrue(Files.isRegularFile(out.resolve(Invocations.provenanceFile(1))), "the provenance");
            assertFalse(portListens(port), "every application stopped: nothing listens on " + port);

            try (ChildJvm again = ChildJvm.command("-jar", JAR.toString(), "advise", "--rerender", "--out", out.toString()).start()) {
                assertEquals(0, again.exit(Duration.ofSeconds(60)), again.output());
                assertEquals(page, Files.readString(out.resolve(AppAdvise.PAGE)), "--rerender writes the same page from the CSV alone");
            }
        }
    }

    /** Before anything is measured: a --url port another process holds, and an application that exits, each one line and exit status 1. */
    @Test
    void aTakenPortOrAnApplicationThatNeverAnswersIsOneLine(@TempDir Path dir) throws Exception {
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ChildJvm advise = ChildJvm.command("-jar", JAR.toString(), "advise", "--app", ChildJvm.java() + " -jar their-app.jar", "--url",
                     "http://127.0.0.1:" + taken.getLocalPort() + "/", "--out", dir.resolve("a").toString()).start()) {
            assertEquals(1, advise.exit(Duration.ofSeconds(60)), advise.output());
            assertTrue(advise.output().contains("loomylin: port " + taken.getLocalPort() + " of --url is taken before your application started"), advise.output());
        }
        int port = freePort();
        try (ChildJvm advise = ChildJvm.command("-jar", JAR.toString(), "advise", "--app", ChildJvm.java() + " -cp " + dir + " NoSuchMain", "--url",
                "http://127.0.0.1:" + port + "/", "--out", dir.resolve("b").toString()).start()) {
            assertEquals(1, advise.exit(Duration.ofSeconds(90)), advise.output());
            String line = advise.output().lines().filter(l -> l.startsWith("loomylin: ")).findFirst().orElseThrow(() -> new AssertionError(advise.output()));
            assertTrue(line.contains("your application on qtp:8-200 exited with status 1 while starting: ") && line.contains("NoSuchMain"), line);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--app java -jar app.jar | advise --app needs --url",
            "--url http://localhost:8080/x | advise --url needs --app",
            "--app python app.py --url http://localhost:8080/x | --app must start with java or a path to a java",
            "--app java -jar app.jar --url http://192.168.1.2:8080/x | must be on this machine's loopback",
            "--app java -jar app.jar --url http://localhost:8080/x --rate 0 | --rate must be a whole number from 1",
            "--app java -jar app.jar --url http://localhost:8080/x --threads 10 | unknown flag --threads",
            "--rerender --out /nonexistent/advise-app | no advise.csv (a request profile) or advise-app.csv (an application) in /nonexistent/advise-app"})
    void aMistakeIsOneLineAndExitStatus2(String args, String message) throws Exception {
        String[] words = args.trim().split("\\s+");
        // The command's words after --app are one argument, as a shell passes a quoted --app.
        List<String> argv = new java.util.ArrayList<>(List.of("advise"));
        for (int i = 0; i < words.length; i++) {
            if (words[i].equals("--app")) {
                StringBuilder app = new StringBuilder();
                while (i + 1 < words.length && !words[i + 1].startsWith("--")) app.append(app.isEmpty() ? "" : " ").append(words[++i]);
                argv.addAll(List.of("--app", app.toString()));
            } else {
                argv.add(words[i]);
            }
        }
        try (ChildJvm c = ChildJvm.main(argv.toArray(String[]::new)).start()) {
            assertEquals(2, c.exit(Duration.ofSeconds(30)), c.output());
            List<String> lines = c.output().lines().filter(l -> !l.isBlank()).toList();
            assertEquals(1, lines.size(), "one line: " + c.output());
            assertTrue(lines.getFirst().contains(message), lines.getFirst());
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean portListens(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
