package loomylin.lab.experiment.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.lab.bench.BenchFlags;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Timed;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench --preset db}: its rows read back as written, its cells' standing, its flags, and a smoke run against a real PostgreSQL. */
class DbBenchTest {
    private static DbBench.Row row(int invocation, String pool, boolean clientLimited, double goodput) {
        return new DbBench.Row(invocation, 1, pool, 10, "closed 1000", 100, 0, 5000, (long) (goodput * 30), 4000, 0, goodput, 120.5, 990.0, 0.412,
                0.205, 22.5, 0, 960, 1000, 10, 31, 412.4, -1, 3900, clientLimited, null);
    }

    private static final RunResult.When WHEN = new RunResult.When("2026-11-26T11:00:00Z", "2026-11-26T11:00:40Z", "1.50");

    @Test
    void aRowReadBackWritesTheSameLine() {
        Timed<DbBench.Row> r = new Timed<>(row(2, "loom", false, 97.5), WHEN);
        String text = DbReport.TABLE.text(List.of(r));
        assertEquals(List.of(r), DbReport.TABLE.parse(text));
        assertEquals(text, DbReport.TABLE.text(DbReport.TABLE.parse(text)));
    }

    /** Every committed db.csv reads back and writes the same (older ones, without peak_rss_mb, every field they have). */
    @Test
    void theCommittedResultsReadBack() {
        loomylin.testing.CommittedCsv.assertRoundTrips(DbReport.TABLE, "db.csv");
    }

    @Test
    void aCellDecidesWithThreeRunsFromTwoInvocations() {
        assertEquals("decides", DbReport.standing(3, 2));
        assertEquals("sketch: 3 runs from 1 invocation", DbReport.standing(3, 1));
        assertEquals("sketch: 1 run from 1 invocation", DbReport.standing(1, 1));
        assertEquals("no deciding run", DbReport.standing(0, 0));
        assertEquals(100, DbBench.bound(10), "Little's law: 10 connections / 0.1 s");
    }

    @Test
    void theReportLeavesClientLimitedRunsOutAndSaysSo(@TempDir Path dir) throws Exception {
        List<DbBench.Row> rows = List.of(row(1, "loom", false, 97), row(1, "loom", false, 98), row(2, "loom", false, 99), row(2, "loom", true, 60));
        String md = writeAndRerender(dir, rows, DbBench.Setup.DEFAULT);
        assertTrue(md.contains("| loom | 10 | closed 1000 | 3 / 4 | decides | 0.98 (0.97-0.99) |"), md);
        assertTrue(md.contains("invocation 2 repeat 1 loom db pool 10 closed 1000: client-limited"), md);
        assertTrue(md.contains("provenance.json, provenance-2.json"), md);
        assertTrue(md.contains("`/db-blocking?ms=100`") && md.contains("HikariCP") && !md.contains("--max-in-flight"), md);
        assertTrue(md.contains("| peak OS threads | peak RSS MB |") && md.contains("| 31 | 412 |"), "memory beside the threads: " + md);
    }

    /** A db.csv written before memory was recorded reads without it, and its cell says so with "-". */
    @Test
    void aRunRecordedBeforeMemoryReadsWithoutIt(@TempDir Path dir) throws Exception {
        String header = DbReport.TABLE.header().replace(",peak_rss_mb", "");
        String line = DbReport.TABLE.line(new Timed<>(row(1, "loom", false, 97), WHEN));
        DbBench.Row old = DbReport.TABLE.parse(header + "\n" + line.substring(0, line.lastIndexOf(',')) + "\n").getFirst().row();
        assertTrue(Double.isNaN(old.peakRssMb()), old.toString());
        DbReport.write(dir, "# t\n\n", List.of(old), Duration.ofSeconds(30), DbBench.Setup.DEFAULT);
        assertTrue(Files.readString(dir.resolve("db.md")).contains("| 31 | - |"), Files.readString(dir.resolve("db.md")));
    }

    @Test
    void theAsyncClientAndAnAdmissionLimitAreSaidAndReadBackByRerender(@TempDir Path dir) throws Exception {
        DbBench.Setup setup = new DbBench.Setup(DbClient.VERTX, 10, DbBench.DB_TIMEOUT_MS);
        String md = writeAndRerender(dir, List.of(row(1, "loom", false, 97)), setup);
        assertTrue(md.startsWith("# The connection pool as the bound: /db-async on PostgreSQL"), md);
        assertTrue(md.contains("`/db-async?ms=100`") && md.contains("Vert.x") && md.contains("behind `--max-in-flight 10 --max-in-flight-wait-ms 1000`"), md);
        assertEquals(setup, DbBench.Setup.ofReport(md));
        assertEquals(List.of("--max-in-flight", "10", "--max-in-flight-wait-ms", "1000"), setup.serverFlags());
        assertEquals(List.of(), DbBench.Setup.DEFAULT.serverFlags());
    }

    /** A shorter wait for the limit's slot than for a connection is said, passed to the servers and read back by --rerender. */
    @Test
    void aShorterWaitForTheLimitIsSaidAndReadBack(@TempDir Path dir) throws Exception {
        DbBench.Setup setup = new DbBench.Setup(DbClient.JDBC, 10, 100);
        String md = writeAndRerender(dir, List.of(row(1, "loom", false, 97)), setup);
        assertTrue(md.contains("behind `--max-in-flight 10 --max-in-flight-wait-ms 100`") && md.contains("wait for a slot 100 ms, where a connection is waited for 1000 ms"), md);
        assertEquals(setup, DbBench.Setup.ofReport(md));
        assertEquals(List.of("--max-in-flight", "10", "--max-in-flight-wait-ms", "100"), setup.serverFlags());
        DbBench.Options o = DbBench.Options.of(Flags.parse(new String[] {"--preset", "db", "--out", "x", "--max-in-flight", "10", "--max-in-flight-wait-ms", "100"},
                BenchFlags.FLAGS, Map.of()));
        assertEquals(setup, o.setup());
    }

    /** Writes db.md and db.png for {@code rows}, then --rerender from db.csv; asserts both write the same report and returns it. */
    private static String writeAndRerender(Path dir, List<DbBench.Row> rows, DbBench.Setup setup) throws Exception {
        DbReport.write(dir, Provenance.collect("bench --preset db", dir, Map.of(), Map.of()), 2, rows, Duration.ofSeconds(30), setup);
        String md = Files.readString(dir.resolve("db.md"));
        assertTrue(md.contains("](db.png)") && Files.size(dir.resolve("db.png")) > 10_000, "the chart is drawn and shown");
        Files.delete(dir.resolve("db.png"));
        Flags rerender = Flags.parse(new String[] {"--preset", "db", "--rerender", "--out", dir.toString()}, BenchFlags.FLAGS, Map.of());
        Files.writeString(dir.resolve("db.csv"), DbReport.TABLE.text(rows.stream().map(r -> new Timed<>(r, WHEN)).toList()));
        DbBench.run(rerender, "test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(md, Files.readString(dir.resolve("db.md")), "--rerender writes the same report from db.csv, provenance kept");
        assertTrue(Files.exists(dir.resolve("db.png")));
        return md;
    }

    @Test
    void flagsItDoesNotReadAreRefusedInOneLine() {
        for (String[] args : List.of(new String[] {"--pools", "nope"}, new String[] {"--db-pools", "0"}, new String[] {"--db-pools", "x"},
                new String[] {"--duration", "1500ms"}, new String[] {"--concurrency", "5"}, new String[] {"--db-client", "odbc"},
                new String[] {"--max-in-flight", "-1"}, new String[] {"--max-in-flight-wait-ms", "100"},
                new String[] {"--max-in-flight", "10", "--max-in-flight-wait-ms", "-1"})) {
            Flags flags = Flags.parse(java.util.stream.Stream.concat(java.util.stream.Stream.of("--preset", "db", "--out", "x"),
                    java.util.stream.Stream.of(args)).toArray(String[]::new), BenchFlags.FLAGS, Map.of());
            UsageError e = assertThrows(UsageError.class, () -> {
                BenchFlags.only(flags, DbBench.NAME, DbBench.FLAGS);
                DbBench.run(flags, "test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            }, String.join(" ", args));
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    /** Smoke size: loom, a pool of 2 connections, 2 s windows: both loads run, the open loop gets 2xx answers, the closed one 503s. */
    @IntegrationTest
    @Test
    void smokeRunWritesARowPerRunTheTableAndProvenance(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        String[] args = {"--preset", "db", "--pools", "loom", "--db-pools", "2", "--duration", "2s", "--repeat", "1", "--out", out.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DbBench.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "bench " + String.join(" ", args), new PrintStream(log, true, StandardCharsets.UTF_8));
        List<Map<String, String>> rows = Invocations.rows(out.resolve("db.csv"));
        assertEquals(2, rows.size(), log.toString(StandardCharsets.UTF_8));
        for (Map<String, String> r : rows) {
            assertEquals("", r.get("failure"), r.toString());
            // 2 s windows are too short for /proc's 10 ms ticks to see PostgreSQL's few milliseconds: read, not zero-checked
            assertTrue(Double.parseDouble(r.get("postgres_cpu_ms_per_ok")) >= 0, "PostgreSQL's CPU is read: " + r);
            assertTrue(Integer.parseInt(r.get("peak_os_threads")) > 0 && Integer.parseInt(r.get("peak_postgres_active")) > 0
                    && Double.parseDouble(r.get("peak_rss_mb")) > 0, "the window's peaks are sampled: " + r);
        }
        assertTrue(Long.parseLong(rows.get(0).get("ok")) > 0, "the open loop below the bound is answered: " + rows.get(0));
        assertTrue(Long.parseLong(rows.get(1).get("refused")) > 0 && Long.parseLong(rows.get(1).get("db_timeouts")) > 0,
                "1000 clients on 2 connections: the pool's timeout answers 503: " + rows.get(1));
        String md = Files.readString(out.resolve("db.md"));
        assertTrue(md.contains("## Provenance") && md.contains("| loom | 2 | open 0.8x |"), md);
        assertTrue(Files.readString(out.resolve("provenance.json")).contains("\"postgresql\""), "the database's version is in the provenance");
    }

    /**
     * Smoke size through the non-blocking client behind an admission limit as big as the pool: 1000 clients on
     * 2 connections are refused at the door (503s) and no request waits out the pool's timeout.
     */
    @IntegrationTest
    @Test
    void theAsyncClientBehindMaxInFlightIsRefusedAtTheDoorNotByThePool(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        String[] args = {"--preset", "db", "--pools", "loom", "--db-pools", "2", "--db-client", "vertx", "--max-in-flight", "2", "--duration", "2s",
                "--repeat", "1", "--out", out.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DbBench.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "bench " + String.join(" ", args), new PrintStream(log, true, StandardCharsets.UTF_8));
        List<Map<String, String>> rows = Invocations.rows(out.resolve("db.csv"));
        assertEquals(2, rows.size(), log.toString(StandardCharsets.UTF_8));
        assertTrue(rows.stream().allMatch(r -> "".equals(r.get("failure"))), rows.toString());
        assertTrue(Long.parseLong(rows.get(0).get("ok")) > 0, "the open loop below the bound is answered through Vert.x: " + rows.get(0));
        assertTrue(Long.parseLong(rows.get(1).get("refused")) > 0 && "0".equals(rows.get(1).get("db_timeouts")),
                "1000 clients behind --max-in-flight 2: refused by the limit, none by the pool's timeout: " + rows.get(1));
        assertTrue(Files.readString(out.resolve("db.md")).contains("behind `--max-in-flight 2 "), "the report says the limit");
    }
}
