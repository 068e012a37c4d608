package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import loomylin.server.proc.ProcLimits;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStatus;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A server in a 256 MB heap (ChildJvm's) far past what its pool is comfortable with, loaded by hey on loopback:
 * it stays up, logs no OutOfMemoryError, answers every request completely (200, or 503 where the in-flight limit
 * is on, and then some are), hey sees no connection error, and SIGTERM afterwards exits 0. Each scenario prints one
 * line of figures (answers by status, seconds, the server's peak RSS and its threads after the load) to the
 * test's output file. {@code qtp4} is cut to {@link Sizes#QUICK}'s 400 concurrent 10 ms requests so that it ends
 * in seconds; {@code -Dloomylin.overloadQtp4Clients=2000 -Dloomylin.overloadQtp4Ms=100} runs it at the size of the
 * committed run in gfx/results/overload (about 4 minutes), and {@code -Dloomylin.overloadLoomClients=N} sets the
 * loom scenarios' 8000. A machine whose open-files limit cannot hold the connections skips the scenario in one
 * line, as one without hey does.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class OverloadTest {
    /** Descriptors past the connections: the JVM's own files, the server's listeners, hey's. */
    static final int SPARE_FILES = 1_000;

    /**
     * The loads, from the system properties named in the class comment; a value out of range fails the test in
     * one line.
     *
     * @param qtp4Clients the qtp4 scenario's concurrent clients and requests (1-10000)
     * @param qtp4Ms      how long each of its requests waits, {@code /wait-blocking?ms=} (1-1000)
     * @param loomClients the loom scenarios' concurrent clients; each sends two requests (1-16000)
     */
    record Sizes(int qtp4Clients, int qtp4Ms, int loomClients) {
        static final Sizes QUICK = new Sizes(400, 10, 8_000);

        static Sizes fromSystemProperties() {
            return new Sizes(property("loomylin.overloadQtp4Clients", QUICK.qtp4Clients, 10_000),
                    property("loomylin.overloadQtp4Ms", QUICK.qtp4Ms, 1_000),
                    property("loomylin.overloadLoomClients", QUICK.loomClients, 16_000));
        }

        private static int property(String name, int otherwise, int max) {
            String value = System.getProperty(name);
            if (value == null || value.isBlank()) return otherwise;
            try {
                int n = Integer.parseInt(value.strip());
                if (n >= 1 && n <= max) return n;
            } catch (NumberFormatException e) {
                // said below, in one line
            }
            throw new IllegalArgumentException("-D" + name + " must be a whole number from 1 to " + max + ", got '" + value + "'");
        }
    }

    /**
     * One load: the server's flags, hey's requests, concurrency and per-request timeout, and the statuses allowed.
     * qtp:4 answers about ten 100 ms requests a second (gfx/results/overload), so its last client waits about
     * requests x ms / 1000 seconds; its timeout is three times that, and never below a minute.
     */
    record Scenario(String name, List<String> flags, String path, int requests, int concurrency, int timeoutSeconds, Set<Integer> allowed) {
        static List<Scenario> of(Sizes sizes) {
            List<String> limited = List.of("--pools", "loom", "--max-in-flight", "2000", "--max-in-flight-wait-ms", "500");
            return List.of(
                    // qtp:4 queueing its clients' requests on its 2 unleased threads
                    new Scenario("qtp4", List.of("--pools", "qtp:4"), "/wait-blocking?ms=" + sizes.qtp4Ms(), sizes.qtp4Clients(), sizes.qtp4Clients(),
                            Math.max(60, 3 * sizes.qtp4Clients() * sizes.qtp4Ms() / 1000), Set.of(200)),
                    // loom holding a connection with a request in flight for each client
                    new Scenario("loom", List.of("--pools", "loom"), "/wait-blocking?ms=1000", 2 * sizes.loomClients(), sizes.loomClients(), 60, Set.of(200)),
                    // loom with the in-flight limit: the excess gets 503
                    new Scenario("loom-limited", limited, "/wait-blocking?ms=1000", 2 * sizes.loomClients(), sizes.loomClients(), 60, Set.of(200, 503)));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Scenario> scenarios() {
        return Scenario.of(Sizes.fromSystemProperties());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyRequestGetsACompleteAnswerAndTheServerStopsCleanly(Scenario s, @TempDir Path dir) throws Exception {
        Path hey = Tools.assumeOnPath("hey", "apt-get install hey");
        long needed = s.concurrency() + SPARE_FILES;
        OptionalLong openFiles = ProcLimits.openFiles(ProcLimits.SELF);
        assumeTrue(openFiles.isEmpty() || openFiles.getAsLong() >= needed, () -> "needs an open-files limit of " + needed
                + " for " + s.concurrency() + " connections: this JVM has " + openFiles.getAsLong() + " (raise the hard limit: ulimit -Hn)");
        List<String> flags = new ArrayList<>(s.flags());
        flags.addAll(List.of("--accept-queue", String.valueOf(acceptQueue()), "--grace-ms", "5000"));
        try (ChildJvm server = ChildJvm.servers(flags.toArray(String[]::new)).startReady()) {
            String url = "http://127.0.0.1:" + server.port() + s.path();
            long started = System.nanoTime();
            HeySummary answers = HeySummary.run(hey, dir.resolve("hey.txt"), s.requests(), s.concurrency(), s.timeoutSeconds(), url);
            long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
            ProcStatus status = ProcReader.SYSTEM.status(server.pid()).orElse(new ProcStatus(0, 0, 0, 0, 0));
            System.out.printf("overload %s: %d of %d answered %s in %d s, hey's errors %s; server peak RSS %d MB, %d threads after%n",
                    s, answers.answered(), s.requests(), answers.statuses(), seconds, answers.errors(), status.hwmKb() / 1024, status.threads());

            assertTrue(server.process().isAlive(), "the server is up after the load:\n" + server.output());
            assertFalse(server.output().contains("OutOfMemoryError"), server.output());
            assertEquals(Map.of(), answers.errors(), "hey's connection errors");
            assertEquals(s.requests(), answers.answered(), "every request answered: " + answers.statuses());
            assertTrue(s.allowed().containsAll(answers.statuses().keySet()), "statuses " + answers.statuses() + ", allowed " + s.allowed());
            if (s.allowed().contains(503)) assertTrue(answers.statuses().getOrDefault(503, 0) > 0, "the limit refused some: " + answers.statuses());

            server.signal("TERM");
            assertEquals(0, server.exit(Duration.ofSeconds(15)), server.output());
        }
    }

    /** The server's accept queue: 4096, or the kernel's somaxconn where that is lower. */
    private static int acceptQueue() throws IOException {
        Path somaxconn = Path.of("/proc/sys/net/core/somaxconn");
        // readAllLines: Files.readString returns only the first byte of a /proc/sys file (JDK 25, Linux 6)
        int kernel = Files.isReadable(somaxconn) ? Integer.parseInt(Files.readAllLines(somaxconn).get(0).strip()) : 4096;
        return Math.min(kernel, 4096);
    }

    /** hey's summary: responses by status and connection errors by message. */
    record HeySummary(Map<Integer, Integer> statuses, Map<String, Integer> errors) {
        static final Pattern STATUS = Pattern.compile("^\\s+\\[(\\d{3})]\\s+(\\d+) responses", Pattern.MULTILINE);
        static final Pattern ERROR = Pattern.compile("^\\s+\\[(\\d+)]\\s+(.+)$", Pattern.MULTILINE);

        /** Runs {@code hey -n -c -t url}, bounded by the timeout plus a minute, and reads its summary. */
        static HeySummary run(Path hey, Path out, int requests, int concurrency, int timeoutSeconds, String url) throws Exception {
            Process p = new ProcessBuilder(hey.toString(), "-n", String.valueOf(requests), "-c", String.valueOf(concurrency),
                    "-t", String.valueOf(timeoutSeconds), url).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            try {
                assertTrue(p.waitFor(timeoutSeconds + 60L, TimeUnit.SECONDS), () -> "hey still running " + (timeoutSeconds + 60) + " s after it started:\n" + read(out));
            } finally {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            assertTrue(text.contains("Status code distribution:"), "hey's summary:\n" + text);
            return parse(text);
        }

        private static String read(Path out) {
            try {
                return Files.readString(out, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }

        static HeySummary parse(String text) {
            Map<Integer, Integer> statuses = new TreeMap<>();
            int errorsAt = text.indexOf("Error distribution:");
            String statusPart = errorsAt < 0 ? text : text.substring(0, errorsAt);
            Matcher m = STATUS.matcher(statusPart.substring(statusPart.indexOf("Status code distribution:")));
            while (m.find()) statuses.merge(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer::sum);
            Map<String, Integer> errors = new TreeMap<>();
            if (errorsAt >= 0) {
                Matcher e = ERROR.matcher(text.substring(errorsAt));
                while (e.find()) errors.merge(e.group(2).strip(), Integer.parseInt(e.group(1)), Integer::sum);
            }
            return new HeySummary(statuses, errors);
        }

        int answered() {
            return statuses.values().stream().mapToInt(Integer::intValue).sum();
        }
    }
}
