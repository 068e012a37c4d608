package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.Runner;
import loomylin.server.json.Json;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar loomylin.jar soak} as a user runs it, in a child JVM that starts the servers' JVM itself: the
 * shortest soak it allows passes every check, SIGTERM's included, and leaves its CSV, output and the engine's
 * provenance in {@code --out}; a bad flag of either reliability command is one line and exit status 2.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class SoakCommandTest {

    @Test
    void theShortestSoakPassesAndWritesItsResults(@TempDir Path out) throws Exception {
        String seconds = String.valueOf(SoakCommand.MIN_SECONDS);
        try (ChildJvm c = ChildJvm.main("soak", "--seconds", seconds, "--out", out.toString()).start()) {
            int status = c.exit(Duration.ofSeconds(SoakCommand.MIN_SECONDS + 120));
            String output = c.output();
            List<String> lines = output.strip().lines().toList();
            assertEquals(0, status, output);
            String last = lines.get(lines.size() - 1);
            assertTrue(last.matches("soak: \\d+ passed, 0 failed"), last);
            assertTrue(lines.contains("PASS sigterm-exit-0: exit status 0"), output);
            for (String check : List.of("no-5xx", "expected-statuses", "no-connection-errors", "every-request-accounted", "rss-flat", "threads-flat"))
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("PASS " + check + ":")), check + ": " + output);
            assertEquals(3, lines.stream().filter(l -> l.matches("PASS port-\\d+-answers: \\d+ answers")).count(), "each of the three servers answered: " + output);

            List<String> csv = Files.readAllLines(out.resolve(SoakCommand.CSV));
            assertEquals(2, csv.size(), "a header and one row: " + csv);
            assertEquals(String.join(",", Soak.CSV_COLUMNS), csv.get(0));
            String[] row = csv.get(1).split(",", -1);
            assertEquals(Soak.CSV_COLUMNS.size(), row.length, csv.get(1));
            assertEquals(seconds, row[Soak.CSV_COLUMNS.indexOf("seconds")]);
            assertEquals("0", row[Soak.CSV_COLUMNS.indexOf("checks_failed")], csv.get(1));
            assertTrue(Long.parseLong(row[Soak.CSV_COLUMNS.indexOf("sent")]) > 0, csv.get(1));

            Map<?, ?> provenance = (Map<?, ?>) Json.parse(Files.readString(out.resolve("provenance.json")));
            assertEquals(1, provenance.get("schema"), "the engine's schema: " + provenance);
            assertTrue(provenance.get("command").toString().endsWith("java -jar loomylin.jar soak --seconds " + seconds + " --out " + out), provenance.toString());
            assertTrue(((Number) provenance.get("duration_s")).longValue() >= SoakCommand.MIN_SECONDS, provenance.toString());
            for (String field : List.of("date", "commit", "dirty", "out", "machine", "jdk", "jetty", "javalin", "tools", "cpu_sets"))
                assertTrue(provenance.containsKey(field), field + " in " + provenance);
            assertFalse(provenance.containsKey("script"), "not the scripts' old schema: " + provenance);

            assertEquals(output.strip(), Files.readString(out.resolve(ReliabilityRun.OUTPUT)).strip(), "output.txt holds what the command printed");
            assertTrue(Files.readString(out.resolve(Runner.SERVERS_LOG)).contains("ready;"), "the servers' log");
        }
    }

    @Test
    void aBadFlagIsOneLineAndExitStatus2() throws Exception {
        List<List<String>> mistakes = List.of(List.of("soak", "--seconds", "5"), List.of("soak", "--nope"), List.of("soak", "--rss-tolerance", "x"),
                List.of("slow-clients", "--open-files", "10"), List.of("slow-clients", "--seconds"));
        for (List<String> args : mistakes) {
            try (ChildJvm c = ChildJvm.main(args.toArray(String[]::new)).start()) {
                assertEquals(2, c.exit(Duration.ofSeconds(30)), args + ": " + c.output());
                List<String> lines = c.output().strip().lines().toList();
                assertEquals(1, lines.size(), args + ": " + c.output());
                assertTrue(lines.get(0).startsWith("loomylin: ") && lines.get(0).endsWith("(see --help)"), args + ": " + lines.get(0));
            }
        }
    }
}
