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
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.RunExecutor;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Timed;
import loomylin.lab.engine.run.Warmth;
import loomylin.lab.engine.run.Warmup;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --preset db}: its rows read back as written, its cells' standing, its marks (client-limited, cold), its
 * flags, and smoke runs against a real PostgreSQL that warm up until the JIT is quiet or mark the run cold.
 */
class DbBenchTest {
    private static DbBench.Row row(int invocation, String pool, boolean clientLimited, double goodput) {
        return row(invocation, pool, clientLimited, goodput, Warmth.NONE);
    }

    private static DbBench.Row row(int invocation, String pool, boolean clientLimited, double goodput, Warmth warmth) {
        return new DbBench.Row(invocation, 1, pool, 10, "closed 1000", 100, 0, 5000, (long) (goodput * 30), 4000, 0, goodput, 120.5, 990.0, 0.412,
                0.205, 22.5, 0, 960, 1000, 10, 31, 412.4, -1, 3900, clientLimited, null, warmth);
    }

    /** A warm-up of three slices of 6,000 answers each, the JIT's share falling to {@code lastJitShare}, and a window of 2,925 answers. */
    private static Warmth warmth(double lastJitShare) {
        List<Warmup.Slice> slices = List.of(new Warmup.Slice(6_000, new JvmCpu(6, 1.2, 0.1)), new Warmup.Slice(6_000, new JvmCpu(3, 0.3, 0.05)),
                new Warmup.Slice(6_000, new JvmCpu(2.9, lastJitShare * 2.9, 0.05)));
        return Warmth.of(Warmup.of(slices), new JvmCpu(1.205, 0.012, 0.030));
    }

    private static final RunResult.When WHEN = new RunResult.When("2026-11-26T11:00:00Z", "2026-11-26T11:00:40Z", "1.50");

    @Test
    void aRowReadBackWritesTheSameLine() {
        Timed<DbBench.Row> r = new Timed<>(row(2, "loom", false, 97.5), WHEN);
        String text = DbReport.TABLE.text(List.of(r));
        assertEquals(List.of(r), DbReport.TABLE.parse(text));
        assertEquals(text, DbReport.TABLE.text(DbReport.TABLE.parse(text)));
    }

    /** A run's warm-up and the window's CPU by thread are columns of its row, and read back as written. */
    @Test
    void aRowRecordsTheJitAndWarmAndReadsBack() {
        Timed<DbBench.Row> r = new Timed<>(row(1, "loom", false, 97.5, warmth(0.01)), WHEN);
        String text = DbReport.TABLE.text(List.of(r));
        Map<String, String> f = loomylin.server.cli.Csv.parse(text).getFirst();
        assertEquals("true", f.get("warm"), text);
        assertEquals("0.00410", f.get("jit_cpu_ms_per_req"), "12 ms of the JIT's over 2,925 answers: " + text);
        assertEquals("0.01026", f.get("gc_cpu_ms_per_req"), text);
        assertEquals("1.000;0.500;0.483", f.get("warmup_cpu_ms_per_req"), text);
        assertEquals("20.0;10.0;1.0", f.get("warmup_jit_pct"), text);
        DbBench.Row back = DbReport.TABLE.parse(text).getFirst().row();
        assertEquals(Boolean.TRUE, back.warmth().warm());
        assertEquals(text, DbReport.TABLE.text(DbReport.TABLE.parse(text)));
        assertEquals(List.of(), back.marks());
    }

    /** Every committed db.csv reads back and writes the same (older ones, without peak_rss_mb, every field they have). */
    @Test
    void theCommittedResultsReadBack() {
        loomylin.testing.CommittedCsv.assertRoundTrips(DbReport.TABLE, "db.csv");
    }

    /** The committed db.csv files are from before the warm-up waited for the JIT: their runs read as not recorded, never as cold. */
    @Test
    void theCommittedRunsRecordedNoWarmUpAndAreNotCold() throws Exception {
        for (Path csv : loomylin.testing.CommittedCsv.named("db.csv")) {
            if (Files.readAllLines(csv).getFirst().contains(",warm,")) continue;
            for (DbBench.Row r : DbReport.rows(csv)) {
                assertEquals(Warmth.NONE, r.warmth(), csv + ": " + r);
                assertTrue(!r.marks().contains("cold"), csv + ": " + r);
            }
        }
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

    /**
     * A cold run (its warm-up ran out of slices with the JIT still busy) is left out of every median and named, in the
     * words other pages use; the page states the JIT rule once its runs recorded it, and a page of runs from before the
     * rule keeps saying their one-piece warm-up.
     */
    @Test
    void aColdRunIsLeftOutAndNamedAndThePageSaysTheRule(@TempDir Path dir) throws Exception {
        List<DbBench.Row> rows = List.of(row(1, "loom", false, 97, warmth(0.01)), row(1, "loom", false, 98, warmth(0.01)),
                row(2, "loom", false, 99, warmth(0.02)), row(2, "loom", false, 10, warmth(0.20)));
        assertEquals(List.of("cold"), rows.getLast().marks());
        String md = writeAndRerender(dir, rows, DbBench.Setup.DEFAULT);
        assertTrue(md.contains("| loom | 10 | closed 1000 | 3 / 4 | decides | 0.98 (0.97-0.99) |"), "the cold run is in no median: " + md);
        assertTrue(md.contains("invocation 2 repeat 1 loom db pool 10 closed 1000: cold\n"), md);
        assertTrue(md.contains(Warmup.quietRule()) && md.contains("no failure, not cold, not client-limited"), md);
        assertTrue(md.contains("in slices of `--warmup` (4 s unless the command says another)") && md.contains("at most " + RunExecutor.MAX_WARMUP_SLICES + ")"),
                md);

        String allCold = writeAndRerender(dir, List.of(row(1, "loom", false, 10, warmth(0.20))), DbBench.Setup.DEFAULT);
        assertTrue(allCold.contains("| 0 / 1 | no deciding run |"), "a page of cold runs only still draws them, marked: " + allCold);

        String before = writeAndRerender(dir, List.of(row(1, "loom", false, 97)), DbBench.Setup.DEFAULT);
        assertTrue(before.contains("a 5 s wrk warm-up on `ms=0`") && !before.contains(Warmup.quietRule()) && !before.contains("cold"), before);
    }

    /** A db.csv written before memory was recorded reads without it, and its cell says so with "-". */
    @Test
    void aRunRecordedBeforeMemoryReadsWithoutIt(@TempDir Path dir) throws Exception {
        String header = DbReport.TABLE.header().substring(0, DbReport.TABLE.header().indexOf(",peak_rss_mb"));
        String line = DbReport.TABLE.line(new Timed<>(row(1, "loom", false, 97), WHEN));
        // The fields up to the failure's, which holds no comma here: the columns such a file had.
        String fields = String.join(",", java.util.Arrays.copyOf(line.split(",", -1), header.split(",").length));
        DbBench.Row old = DbReport.TABLE.parse(header + "\n" + fields + "\n").getFirst().row();
        assertTrue(Double.isNaN(old.peakRssMb()), old.toString());
        assertEquals(Warmth.NONE, old.warmth(), "nor its warm-up: not recorded, not cold");
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

    /** --warmup is one warm-up slice, --invocations how often the plan runs: read as the other Runner experiments read them. */
    @Test
    void itReadsItsWarmUpSliceAndInvocations() {
        DbBench.Options o = DbBench.Options.of(Flags.parse(new String[] {"--preset", "db", "--out", "x", "--warmup", "2s", "--invocations", "2"},
                BenchFlags.FLAGS, Map.of()));
        assertEquals(Duration.ofSeconds(2), o.slice());
        assertEquals(2, o.invocations());
        DbBench.Options plain = DbBench.Options.of(Flags.parse(new String[] {"--preset", "db", "--out", "x"}, BenchFlags.FLAGS, Map.of()));
        assertEquals(DbBench.SLICE, plain.slice());
        assertEquals(1, plain.invocations());
    }

    @Test
    void flagsItDoesNotReadAreRefusedInOneLine() {
        for (String[] args : List.of(new String[] {"--pools", "nope"}, new String[] {"--db-pools", "0"}, new String[] {"--db-pools", "x"},
                new String[] {"--duration", "1500ms"}, new String[] {"--concurrency", "5"}, new String[] {"--db-client", "odbc"},
                new String[] {"--max-in-flight", "-1"}, new String[] {"--max-in-flight-wait-ms", "100"},
                new String[] {"--max-in-flight", "10", "--max-in-flight-wait-ms", "-1"}, new String[] {"--warmup", "1500ms"},
                new String[] {"--warmup", "0s"}, new String[] {"--invocations", "0"}, new String[] {"--invocations", "6"})) {
            Flags flags = Flags.parse(java.util.stream.Stream.concat(java.util.stream.Stream.of("--preset", "db", "--out", "x"),
                    java.util.stream.Stream.of(args)).toArray(String[]::new), BenchFlags.FLAGS, Map.of());
            UsageError e = assertThrows(UsageError.class, () -> {
                BenchFlags.only(flags, DbBench.NAME, DbBench.FLAGS);
                DbBench.run(flags, "test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            }, String.join(" ", args));
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    /**
     * Smoke size: loom, a pool of 2 connections, 2 s windows, warm-up slices of 1 s, two invocations: both loads run,
     * the open loop gets 2xx answers, the closed one 503s, each invocation on a PostgreSQL of its own adds its rows.
     * Every run is a fresh server JVM measured at a low rate (the open loop offers 16 req/s): its warm-up went on until
     * the JIT was quiet, or it ran out of slices and the run is marked cold; its row records the window's JIT and GC
     * CPU. A fresh JVM compiles, so the first slice's compiler threads must show CPU: a split that reads nothing fails
     * here. No timing is asserted.
     */
    @IntegrationTest
    @Test
    void smokeRunWarmsUntilTheJitIsQuietAndWritesARowPerRunTheTableAndProvenance(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        String[] args = {"--preset", "db", "--pools", "loom", "--db-pools", "2", "--duration", "2s", "--warmup", "1s", "--repeat", "1", "--invocations", "2",
                "--out", out.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DbBench.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "bench " + String.join(" ", args), new PrintStream(log, true, StandardCharsets.UTF_8));
        List<Map<String, String>> rows = Invocations.rows(out.resolve("db.csv"));
        assertEquals(4, rows.size(), log.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("1", "1", "2", "2"), rows.stream().map(r -> r.get("invocation")).toList(), "two invocations add up in one db.csv");
        for (Map<String, String> r : rows) {
            assertEquals("", r.get("failure"), r.toString());
            // 2 s windows are too short for /proc's 10 ms ticks to see PostgreSQL's few milliseconds: read, not zero-checked
            assertTrue(Double.parseDouble(r.get("postgres_cpu_ms_per_ok")) >= 0, "PostgreSQL's CPU is read: " + r);
            assertTrue(Integer.parseInt(r.get("peak_os_threads")) > 0 && Integer.parseInt(r.get("peak_postgres_active")) > 0
                    && Double.parseDouble(r.get("peak_rss_mb")) > 0, "the window's peaks are sampled: " + r);
            assertWarmedUntilQuietOrCold(r);
        }
        for (int i : List.of(0, 2)) {
            assertTrue(Long.parseLong(rows.get(i).get("ok")) > 0, "the open loop below the bound is answered: " + rows.get(i));
            assertTrue(Long.parseLong(rows.get(i + 1).get("refused")) > 0 && Long.parseLong(rows.get(i + 1).get("db_timeouts")) > 0,
                    "1000 clients on 2 connections: the pool's timeout answers 503: " + rows.get(i + 1));
        }
        String md = Files.readString(out.resolve("db.md"));
        assertTrue(md.contains("## Provenance") && md.contains("| loom | 2 | open 0.8x |") && md.contains(Warmup.quietRule()), md);
        assertTrue(Files.readString(out.resolve("provenance.json")).contains("\"postgresql\""), "the database's version is in the provenance");
        assertTrue(Files.exists(out.resolve("provenance-2.json")), "the second invocation's provenance");
    }

    /** A run's warm-up ended on a quiet slice, or ran out of slices and the run is cold; its row splits the window's CPU by thread. */
    private static void assertWarmedUntilQuietOrCold(Map<String, String> r) {
        List<Double> jitPercents = java.util.Arrays.stream(r.get("warmup_jit_pct").split(";")).map(Double::parseDouble).toList();
        assertEquals(jitPercents.size(), r.get("warmup_cpu_ms_per_req").split(";").length, "every warm-up slice recorded: " + r);
        assertTrue(jitPercents.size() >= Warmup.MIN_SLICES && jitPercents.size() <= RunExecutor.MAX_WARMUP_SLICES, r.toString());
        assertTrue(jitPercents.getFirst() > 0, "a fresh JVM's compiler threads worked in its first slice: " + r);
        if (r.get("warm").equals("true")) {
            assertTrue(jitPercents.getLast() <= 100 * Warmup.QUIET_SHARE, "warm: the last slice was quiet: " + r);
        } else {
            assertEquals("false", r.get("warm"), r.toString());
            assertEquals(RunExecutor.MAX_WARMUP_SLICES, jitPercents.size(), "cold only once the slices ran out: " + r);
        }
        double ok = Long.parseLong(r.get("ok"));
        double jitMs = ok * Double.parseDouble(r.get("jit_cpu_ms_per_req"));
        double gcMs = ok * Double.parseDouble(r.get("gc_cpu_ms_per_req"));
        // The threads are read just around the process's CPU: two of /proc's 10 ms ticks of slack, no more.
        assertTrue(jitMs >= 0 && gcMs >= 0 && jitMs + gcMs <= ok * Double.parseDouble(r.get("server_cpu_ms_per_ok")) + 20, "the window's CPU split: " + r);
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
                "--warmup", "1s", "--repeat", "1", "--out", out.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DbBench.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "bench " + String.join(" ", args), new PrintStream(log, true, StandardCharsets.UTF_8));
        List<Map<String, String>> rows = Invocations.rows(out.resolve("db.csv"));
        assertEquals(2, rows.size(), log.toString(StandardCharsets.UTF_8));
        assertTrue(rows.stream().allMatch(r -> "".equals(r.get("failure"))), rows.toString());
        rows.forEach(DbBenchTest::assertWarmedUntilQuietOrCold);
        assertTrue(Long.parseLong(rows.get(0).get("ok")) > 0, "the open loop below the bound is answered through Vert.x: " + rows.get(0));
        assertTrue(Long.parseLong(rows.get(1).get("refused")) > 0 && "0".equals(rows.get(1).get("db_timeouts")),
                "1000 clients behind --max-in-flight 2: refused by the limit, none by the pool's timeout: " + rows.get(1));
        assertTrue(Files.readString(out.resolve("db.md")).contains("behind `--max-in-flight 2 "), "the report says the limit");
    }
}
