package loomylin.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Ports;
import loomylin.testing.Tools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import loomylin.lab.engine.run.RunResult;

/**
 * {@code bench --target} against servers it did not start: a separate JVM (qtp:4 and loom on free ports,
 * its admin port on a free port) that the bench only reaches over HTTP. Smoke-sized: 50 requests per run.
 */
@IntegrationTest
class RemoteBenchTest {
    private static ChildJvm servers;
    private static String qtp;
    private static String loom;

    @TempDir
    Path out;

    @BeforeAll
    static void startServers() throws Exception {
        // The servers' own embedded backend: the bench loads no /hops-* here, so nothing calls it.
        servers = ChildJvm.main("--host", "127.0.0.1", "--port", "0", "--pools", "qtp:4,loom").startReady();
        List<Integer> ports = servers.serverPorts();
        qtp = "http://127.0.0.1:" + ports.get(0);
        loom = "http://127.0.0.1:" + ports.get(1);
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (servers != null) servers.close();
    }

    private static String port(String log, String regex) {
        Matcher m = Pattern.compile(regex).matcher(log);
        assertTrue(m.find(), "no '" + regex + "' in: " + log);
        return m.group(1);
    }

    private Path bench(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("--preset", "smoke", "--endpoints", "wait-blocking?ms=10",
                "--concurrency", "5", "--requests", "50", "--out", out.toString()));
        all.addAll(List.of(args));
        String[] array = all.toArray(String[]::new);
        return Bench.run(BenchFlags.parse(array, Map.of()), "bench " + String.join(" ", array),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    private static List<String[]> rows(Path dir) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(RunResult.TABLE.header(), lines.get(0));
        return lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
    }

    /** One field of a results.csv row, by its column's name. */
    private static String col(String[] row, String column) {
        int i = RunResult.TABLE.columnNames().indexOf(column);
        assertTrue(i >= 0, "no column " + column);
        return row[i];
    }

    @Test
    void measuresTheTargetsAndTakesTheServerFiguresFromMetrics() throws IOException {
        Tools.assumeOnPath("hey", "apt-get install hey");
        String metrics = "http://127.0.0.1:" + port(servers.output(), "admin port (\\d+)") + "/metrics";
        Path dir = bench("--target", qtp + "," + loom, "--metrics", metrics);

        List<String[]> rows = rows(dir);
        assertEquals(List.of("qtp:4", "loom"), rows.stream().map(f -> f[0]).toList()); // the targets' pools, read from /pool
        for (String[] f : rows) {
            String line = String.join(",", f);
            assertEquals("50", col(f, "requests"), line);
            assertEquals("0", col(f, "errors"), line); // every request answered 2xx
            assertTrue(Double.parseDouble(col(f, "cpu_s")) >= 0, line); // CPU seconds from process_cpu_seconds_total
            assertTrue(Double.parseDouble(col(f, "cpu_ms_per_req")) >= 0, line);
            long idle = Long.parseLong(col(f, "idle_rss_kb"));
            long peak = Long.parseLong(col(f, "peak_rss_kb"));
            assertTrue(idle > 0 && peak >= idle, line); // idle <= peak RSS
            assertTrue(Long.parseLong(col(f, "peak_vsz_kb")) > peak, line); // address space > resident
            assertTrue(Integer.parseInt(col(f, "peak_threads")) > 5, line); // OS threads of a JVM running two servers
            assertEquals("java", col(f, "twin"), line);
            assertEquals("", col(f, "server_cpu_pct"), line); // the server's share of its own machine's cores is not known here
            assertEquals("", col(f, "steal_pct"), line); // nor the steal on the servers' machine
        }
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("Server figures from " + metrics), report);
        assertTrue(!report.contains("**Check:**"), report); // the metrics' process reports both targets' ports
        assertTrue(Files.size(dir.resolve("wait-blocking-ms-10.png")) > 0);
        assertTrue(!Files.exists(dir.resolve("servers.log")), "a --target bench starts no JVM");
    }

    @Test
    void withoutMetricsTheServerColumnsAreEmptyAndTheReportSaysSo() throws IOException {
        Tools.assumeOnPath("hey", "apt-get install hey");
        Path dir = bench("--target", loom);

        List<String[]> rows = rows(dir);
        assertEquals(1, rows.size());
        String[] f = rows.get(0);
        assertEquals("loom", col(f, "pool"));
        assertEquals("0", col(f, "errors"));
        assertEquals(List.of("", "", "", "", "", ""), List.of(col(f, "cpu_s"), col(f, "cpu_ms_per_req"), col(f, "idle_rss_kb"),
                col(f, "peak_rss_kb"), col(f, "peak_vsz_kb"), col(f, "peak_threads")), String.join(",", f));
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("**Server figures: none.** No `--metrics` was given"), report);
        assertTrue(report.contains("| c=5 | loom | hey |"), report);
        assertTrue(Files.readString(dir.resolve("targets.csv")).contains("P5,"), "targets are still written");
    }

    @Test
    void aTargetThatDoesNotAnswerIsOneLineAndExit1BeforeAnyLoad() throws Exception {
        int closed = Ports.free();
        try (ChildJvm bench = ChildJvm.main("bench", "--target", loom + ",http://127.0.0.1:" + closed, "--out", out.toString()).start()) {
            assertEquals(1, bench.exit(Duration.ofSeconds(60)));
            assertEquals("loomylin: target http://127.0.0.1:" + closed + "/pool did not answer: connection refused\n", bench.output());
        }
        assertTrue(!Files.exists(out.resolve("results.csv")), "nothing was run");
    }

    @Test
    void metricsThatAreNotAnAdminPortAreOneLineAndExit1() throws Exception {
        try (ChildJvm bench = ChildJvm.main("bench", "--target", loom, "--metrics", loom + "/pool", "--out", out.toString()).start()) {
            assertEquals(1, bench.exit(Duration.ofSeconds(60)));
            String output = bench.output();
            assertTrue(output.startsWith("loomylin: metrics " + loom + "/pool is not the Prometheus text format") && output.lines().count() == 1, output);
        }
    }

    @Test
    void misusesAreOneLineAndExit2() throws Exception {
        for (List<String> args : List.of(List.of("--target", "localhost:7000"), List.of("--target", "http://h:7000/wait-blocking"),
                List.of("--metrics", "http://h:7004"), List.of("--target", loom, "--pools", "loom"),
                List.of("--target", loom + "," + loom))) {
            List<String> all = new java.util.ArrayList<>(List.of("bench"));
            all.addAll(args);
            try (ChildJvm bench = ChildJvm.main(all.toArray(String[]::new)).start()) {
                assertEquals(2, bench.exit(Duration.ofSeconds(60)), args.toString());
                String output = bench.output();
                assertTrue(output.startsWith("loomylin: ") && output.lines().count() == 1, args + ": " + output);
            }
        }
    }
}
