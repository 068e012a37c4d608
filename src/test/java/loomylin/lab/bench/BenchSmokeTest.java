package loomylin.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import loomylin.lab.engine.output.Charts;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.output.Machine;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.output.Targets;

/**
 * The whole bench for real: hey (and wrk, oha) from PATH, server JVMs started from this test's class path.
 * Without hey, wrk or oha the tests that need it are skipped, naming its install command (CI installs hey).
 * No timing is asserted.
 */
@IntegrationTest
class BenchSmokeTest {
    @TempDir
    Path out;

    private static Path hey() {
        return Tools.assumeOnPath("hey", "apt-get install hey (or brew install hey, go install github.com/rakyll/hey@latest)");
    }

    private static boolean found(Client client) {
        try {
            ClientBinary.locate(client, null, System.getenv("PATH"), Path.of(System.getProperty("user.home")));
            return true;
        } catch (UsageError e) {
            return false;
        }
    }

    private static int column(String name) {
        return RunResult.TABLE.columnNames().indexOf(name);
    }

    private static List<String[]> rows(Path dir) throws IOException {
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(RunResult.TABLE.header(), csv.get(0));
        return csv.subList(1, csv.size()).stream().map(l -> l.split(",", -1)).toList();
    }

    private static Path run(Path out, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--out";
        all[1] = out.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        hey();
        return Bench.run(BenchFlags.parse(all, Map.of()), "bench " + String.join(" ", all), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @Test
    void smokePresetWritesRowsReportTargetsAndCharts() throws IOException {
        Path dir = run(out, "--preset", "smoke");

        List<String[]> rows = rows(dir);
        assertEquals(8, rows.size());
        Set<String> runs = new HashSet<>();
        for (String[] f : rows) {
            String line = String.join(",", f);
            assertEquals(RunResult.TABLE.columnNames().size(), f.length, line);
            runs.add(f[0] + " " + f[1] + " " + f[2]);
            assertEquals("closed", f[column("mode")], line);
            assertEquals("hey", f[column("client")], line);
            assertEquals("1", f[column("repeat")], line);
            assertEquals("100", f[column("requests")], line);
            assertEquals("0", f[column("errors")], line); // every request answered 200
            assertTrue(Double.parseDouble(f[column("rps")]) > 0, line);
            assertTrue(Double.parseDouble(f[column("warmup_rps")]) > 0, line);
            assertTrue(Double.parseDouble(f[column("p999_ms")]) >= Double.parseDouble(f[column("p99_ms")]), line);
            assertTrue(Double.parseDouble(f[column("cpu_ms_per_req")]) >= 0, line);
            double steal = Double.parseDouble(f[column("steal_pct")]); // read from /proc/stat around the measured run
            assertTrue(steal >= 0 && steal <= 100, line);
            assertEquals("", f[column("backend_cpu_ms_per_req")], line); // no /hops-* run here, so no backend
            long idle = Long.parseLong(f[column("idle_rss_kb")]);
            assertTrue(idle > 0 && Long.parseLong(f[column("peak_rss_kb")]) >= idle, line);
            assertTrue(Long.parseLong(f[column("peak_vsz_kb")]) > Long.parseLong(f[column("peak_rss_kb")]), line);
            assertTrue(Integer.parseInt(f[column("peak_threads")]) > 5, line); // a JVM has more threads than that
            assertEquals("java", f[column("twin")], line);
            assertEquals("true", f[column("too_short")], line); // 100 answers: a smoke run decides nothing
            assertEquals("", f[column("warm")], line); // hey's warm-up reads no JIT
            java.time.Instant started = java.time.Instant.parse(f[column("started")]);
            assertTrue(!java.time.Instant.parse(f[column("ended")]).isBefore(started), "a run ends after it starts: " + line);
            assertTrue(Double.parseDouble(f[column("load1")]) >= 0, line);
        }
        assertEquals(Set.of("loom wait-blocking?ms=10 5", "qtp:4 wait-blocking?ms=10 5", "loom wait-blocking?ms=10 10",
                "qtp:4 wait-blocking?ms=10 10", "loom computational?iterations=1000 5", "qtp:4 computational?iterations=1000 5",
                "loom computational?iterations=1000 10", "qtp:4 computational?iterations=1000 10"), runs);

        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("## Provenance"), report);
        assertTrue(report.contains("**These runs decide nothing:**"), report);
        assertTrue(report.contains("**8 of 8 runs were too short**"), report);
        String provenance = Files.readString(dir.resolve("provenance.json"));
        for (String field : List.of("\"commit\"", "\"dirty\"", "\"command\"", "\"machine\"", "\"jdk\"", "\"jetty\"", "\"javalin\"", "\"hey\"", "\"cpu_sets\""))
            assertTrue(provenance.contains(field), field + " in " + provenance);
        assertTrue(report.contains("## Targets"), report);
        assertTrue(report.contains("## /wait-blocking?ms=10"), report);
        assertTrue(report.contains("## /computational?iterations=1000"), report);
        assertTrue(report.contains("![wait-blocking?ms=10](wait-blocking-ms-10.png)"), report);
        assertTrue(report.contains("| warm-up req/s |"), report);
        assertTrue(report.contains(loomylin.lab.engine.run.Warmup.quietRule()), "the method says the warm-up waits for the JIT: " + report);
        assertEquals(1 + Targets.evaluate(List.of(), 2).size(), Files.readAllLines(dir.resolve("targets.csv")).size());

        for (String png : List.of("wait-blocking-ms-10.png", "computational-iterations-1000.png")) assertPng(dir.resolve(png));
        assertEquals(0, ChildProcesses.live(), "every server, backend and hey process has ended");
    }

    @Test
    void repeatsInterleaveAndTheReportShowsTheirRange() throws IOException {
        Path dir = run(out, "--preset", "smoke", "--pools", "loom,qtp:4", "--endpoints", "wait-async?ms=5", "--concurrency", "4",
                "--requests", "40", "--repeat", "2");
        List<String> order = rows(dir).stream().map(f -> f[0] + " #" + f[column("repeat")]).toList();
        assertEquals(List.of("loom #1", "qtp:4 #1", "loom #2", "qtp:4 #2"), order);
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("(hey, 2 runs)") || report.contains("| c=4 | loom | hey |"), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("| c=4 | loom | hey | ")), report);
        assertPng(dir.resolve("wait-async-ms-5.png"));
        assertEquals(0, ChildProcesses.live());
    }

    @Test
    void pinnedServerAndClientRunOnTheirCpusAndProvenanceSaysSo() throws IOException {
        assumeTrue(found(Client.WRK), "needs wrk: apt install wrk");
        assumeTrue(Tools.onPath("taskset"), "needs taskset: apt-get install util-linux");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs to pin server and client apart");
        Path dir = run(out, "--preset", "smoke", "--pools", "loom", "--endpoints", "wait-async?ms=5", "--concurrency", "8",
                "--client", "wrk", "--measure", "1", "--server-cpus", "0", "--client-cpus", "1", "--jfr");
        assertEquals("0", rows(dir).get(0)[column("errors")]);
        List<String> jfr = Files.readAllLines(dir.resolve("jfr.csv"));
        assertEquals(2, jfr.size(), "a header and the run's row: " + jfr);
        assertTrue(Files.size(dir.resolve(jfr.get(1).split(",")[1])) > 0, "the run's recording: " + jfr);
        assertTrue(Files.readString(dir.resolve("report.md")).contains("## Flight recordings (--jfr)"));
        String provenance = Files.readString(dir.resolve("provenance.json"));
        assertTrue(provenance.matches("(?s).*\"client\"\\s*:\\s*\"1\".*"), provenance);
        assertTrue(provenance.matches("(?s).*\"server\"\\s*:\\s*\"0\".*"), provenance);
        assertTrue(provenance.matches("(?s).*\"backend\"\\s*:\\s*\"all\".*"), provenance);
        assertEquals(0, ChildProcesses.live());
    }

    @Test
    void theLatencyPresetRunsOpenLoopWithOha() throws IOException {
        assumeTrue(found(Client.OHA), "needs oha: cargo install oha --version 1.16.0 --locked");
        Path dir = run(out, "--preset", "latency", "--pools", "loom", "--rate", "20,40", "--concurrency", "10", "--measure", "1", "--warmup", "300ms");
        List<String[]> rows = rows(dir);
        assertEquals(4, rows.size()); // wait-blocking and wait-async, two rates each
        for (String[] f : rows) {
            String line = String.join(",", f);
            assertEquals("open", f[column("mode")], line);
            assertEquals("oha", f[column("client")], line);
            assertTrue(f[column("offered_rps")].equals("20") || f[column("offered_rps")].equals("40"), line);
            assertEquals(f[column("offered_rps")], f[column("requests")], line); // rate x 1 s
            assertEquals("0", f[column("errors")], line);
            assertTrue(Double.parseDouble(f[column("p50_ms")]) >= 100, line); // every answer waited its 100 ms
        }
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("## Knees (open loop, /wait-blocking)"), report);
        assertTrue(report.contains("## /wait-blocking?ms=100 (open loop)"), report);
        assertPng(dir.resolve("wait-blocking-ms-100-open.png"));
        assertEquals(0, ChildProcesses.live());
    }

    @Test
    void wrkDrivesAClosedLoopForTheWindow() throws IOException {
        assumeTrue(found(Client.WRK), "needs wrk: apt install wrk");
        Path dir = run(out, "--preset", "smoke", "--pools", "loom", "--endpoints", "wait-async?ms=5", "--concurrency", "8",
                "--client", "wrk", "--measure", "1", "--invocations", "2");
        assertEquals(List.of("1", "2"), rows(dir).stream().map(r -> r[column("invocation")]).toList(), "one run per invocation");
        String[] f = rows(dir).get(0);
        String line = String.join(",", f);
        assertEquals("wrk", f[column("client")], line);
        assertTrue(Long.parseLong(f[column("responses")]) > 100, line); // 8 connections, 5 ms waits, 1 s
        assertEquals("0", f[column("errors")], line);
        assertTrue(Double.parseDouble(f[column("p50_ms")]) >= 5, line);
        assertEquals("", f[column("warm")], "smoke's 500ms warm-up is one slice, which records no warm: " + line);
        assertEquals(0, ChildProcesses.live());
    }

    /**
     * The general bench's closed-loop warm-up (wrk) on a fresh server JVM at a low rate (one connection, 20 ms waits:
     * some 50 req/s), in slices of 1 s: each slice reads the server's JIT, so the run records whether the last was
     * quiet; a run whose warm-up ran out of slices with the JIT busy is marked cold and decides nothing. The window's
     * CPU is split by thread within the process's. (That the warm-up goes on past a settled rate while the JIT is
     * busy, and marks a run cold only at its bound, is {@code WarmUpTest}'s, slice by slice.) No timing is asserted.
     */
    @Test
    void aClosedLoopAtALowRateIsWarmedUntilItsJitIsQuietOrMarkedCold() throws IOException {
        assumeTrue(found(Client.WRK), "needs wrk: apt install wrk");
        Path dir = run(out, "--preset", "smoke", "--pools", "loom", "--endpoints", "wait-async?ms=20", "--concurrency", "1", "--client", "wrk",
                "--measure", "1", "--warmup", "2s");
        List<RunResult> runs = RunResult.TABLE.read(dir.resolve("results.csv"));
        assertEquals(1, runs.size());
        RunResult r = runs.getFirst();
        assertNotNull(r.settle().warm(), "a warm-up of two slices or more reads the server's JIT: " + r);
        assertEquals(!r.settle().warm(), r.cold(), r.toString());
        assertEquals(r.cold(), r.marks().contains("cold"), r.marks().toString());
        // The threads are read just around the process's CPU: two of /proc's 10 ms ticks of slack, no more.
        assertTrue(r.jvm().jitS() >= 0 && r.jvm().gcS() >= 0 && r.jvm().jitS() + r.jvm().gcS() <= r.cpuS() + 0.02, "the window's CPU split: " + r.jvm());
        assertEquals(0, ChildProcesses.live());
    }

    private static void assertPng(Path png) throws IOException {
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, png + " is not an image");
        assertEquals(Charts.WIDTH, image.getWidth(), png.toString());
        assertEquals(Charts.HEIGHT, image.getHeight(), png.toString());
    }

    @Test
    void aRunThatFailsKeepsTheRunsBeforeIt() throws IOException {
        // A hey that works for the first run (warm-up and measurement), then breaks.
        Path fake = out.resolve("hey");
        Files.writeString(fake, """
                #!/bin/sh
                n=$(cat "$0.count" 2>/dev/null || echo 0)
                echo $((n + 1)) > "$0.count"
                if [ "$n" -ge 2 ]; then echo "broken on purpose" >&2; exit 3; fi
                exec "%s" "$@"
                """.formatted(hey()));
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path dir = out.resolve("results");

        StartupFailure e = assertThrows(StartupFailure.class, () -> run(dir, "--preset", "smoke", "--hey", fake.toString(),
                "--pools", "loom", "--endpoints", "wait-async?ms=1", "--concurrency", "2,3", "--requests", "6"));

        assertTrue(e.getMessage().contains("run 2/2"), e.getMessage());
        assertTrue(e.getMessage().contains("broken on purpose"), e.getMessage());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(2, csv.size(), String.join("\n", csv));
        assertTrue(csv.get(1).startsWith("loom,wait-async?ms=1,2,closed,,hey,1,6,"), csv.get(1));
        assertTrue(Files.readString(dir.resolve("report.md")).contains("**Incomplete:**"));
        assertTrue(Files.exists(dir.resolve("wait-async-ms-1.png")));
        assertEquals(0, ChildProcesses.live(), "the failed run's server has ended too");
    }
}
