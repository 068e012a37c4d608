package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server in a 256 MB heap (ChildJvm's) far past what its pool is comfortable with, loaded by hey on loopback:
 * it stays up, logs no OutOfMemoryError, answers every request completely (200, or 503 where the in-flight limit
 * is on, and then some are), hey sees no connection error, and SIGTERM afterwards exits 0. The same checks as
 * {@code scripts/overload.sh}, which runs bigger loads and prints the figures; {@code qtp4} here is smaller, so
 * that it ends in seconds.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class OverloadTest {
    enum Scenario {
        /** qtp:4 queueing 400 requests at once on its 2 unleased threads. */
        QTP4(List.of("--pools", "qtp:4"), "/wait-blocking?ms=10", 400, 400, Set.of(200)),
        /** loom holding 8000 connections with a request each. */
        LOOM(List.of("--pools", "loom"), "/wait-blocking?ms=1000", 16_000, 8_000, Set.of(200)),
        /** loom with the in-flight limit: the excess gets 503. */
        LOOM_LIMITED(List.of("--pools", "loom", "--max-in-flight", "2000", "--max-in-flight-wait-ms", "500"),
                "/wait-blocking?ms=1000", 16_000, 8_000, Set.of(200, 503));

        final List<String> flags;
        final String path;
        final int requests;
        final int concurrency;
        final Set<Integer> allowed;

        Scenario(List<String> flags, String path, int requests, int concurrency, Set<Integer> allowed) {
            this.flags = flags;
            this.path = path;
            this.requests = requests;
            this.concurrency = concurrency;
            this.allowed = allowed;
        }
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void everyRequestGetsACompleteAnswerAndTheServerStopsCleanly(Scenario s, @TempDir Path dir) throws Exception {
        Path hey = Tools.assumeOnPath("hey", "apt-get install hey");
        List<String> flags = new ArrayList<>(s.flags);
        flags.addAll(List.of("--accept-queue", String.valueOf(acceptQueue()), "--grace-ms", "5000"));
        try (ChildJvm server = ChildJvm.servers(flags.toArray(String[]::new)).startReady()) {
            String url = "http://127.0.0.1:" + server.port() + s.path;
            HeySummary answers = HeySummary.run(hey, dir.resolve("hey.txt"), s.requests, s.concurrency, url);

            assertTrue(server.process().isAlive(), "the server is up after the load:\n" + server.output());
            assertFalse(server.output().contains("OutOfMemoryError"), server.output());
            assertEquals(Map.of(), answers.errors(), "hey's connection errors");
            assertEquals(s.requests, answers.answered(), "every request answered: " + answers.statuses());
            assertTrue(s.allowed.containsAll(answers.statuses().keySet()), "statuses " + answers.statuses() + ", allowed " + s.allowed);
            if (s.allowed.contains(503)) assertTrue(answers.statuses().getOrDefault(503, 0) > 0, "the limit refused some: " + answers.statuses());

            server.signal("TERM");
            assertEquals(0, server.exit(Duration.ofSeconds(15)), server.output());
        }
    }

    /** The server's accept queue: 4096, or the kernel's somaxconn where that is lower (as scripts/overload.sh). */
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

        /** Runs {@code hey -n -c -t 60 url}, bounded by two minutes, and reads its summary. */
        static HeySummary run(Path hey, Path out, int requests, int concurrency, String url) throws Exception {
            Process p = new ProcessBuilder(hey.toString(), "-n", String.valueOf(requests), "-c", String.valueOf(concurrency),
                    "-t", "60", url).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            try {
                assertTrue(p.waitFor(2, TimeUnit.MINUTES), () -> "hey still running after 2 minutes:\n" + read(out));
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
