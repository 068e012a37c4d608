package loomylin.lab.experiment.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import loomylin.lab.bench.BenchFlags;
import loomylin.lab.engine.run.ClientLimit;
import loomylin.lab.engine.run.CpuSplit;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Timed;
import loomylin.lab.engine.load.OhaRun;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.json.Json;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdmissionBenchTest {

    /** The 2xx answers' latency comes from oha's success breakdown, the 503s' do not enter it, and deadline aborts are not errors. */
    @Test
    void ohaSplitKeepsTheLatencyOf2xxApartAndDeadlineAbortsAreNotErrors() {
        String json = """
                {"summary": {"slowest": 2.5},
                 "latencyPercentiles": {"p50": 0.001, "p90": 0.002, "p99": 2.4, "p99.9": 2.5},
                 "latencyPercentilesSuccessful": {"p50": 1.1, "p90": 1.5, "p99": 1.9, "p99.9": 2.0},
                 "latencyPercentilesNotSuccessful": {"p50": 0.001, "p90": 0.001, "p99": 0.002, "p99.9": 0.003},
                 "statusCodeDistribution": {"200": 40, "503": 960},
                 "errorDistribution": {"aborted due to deadline": 7, "timeout": 3}}
                """;
        OhaRun.Split s = OhaRun.parseSplit(json, -1, 30, 1);
        assertEquals(40, s.all().ok());
        assertEquals(1000, s.all().answered());
        assertEquals(1003, s.all().sent(), "answers plus errors, deadline aborts not counted");
        assertEquals(7, s.deadlineAborts());
        assertEquals(3, s.errors());
        assertEquals(1900, s.ok().p99Ms(), 1e-9);
        assertEquals(2400, s.all().latency().p99Ms(), 1e-9);
        OhaRun.Split none = OhaRun.parseSplit("{\"statusCodeDistribution\": {\"503\": 5}}", 10, 1, 1);
        assertTrue(Double.isNaN(none.ok().p99Ms()), "no 2xx answer, no 2xx latency");
        assertEquals(10, none.all().sent());
    }

    /** The goal needs both the goodput and the 2xx p99, and a cell of fewer than three runs, or from one invocation, says it is a sketch. */
    @Test
    void theGoalNeedsGoodputAndLatencyAndFewRunsAreASketch() {
        assertEquals("meets", AdmissionReport.verdict(0.85, 1500, 3, 2));
        assertEquals("misses", AdmissionReport.verdict(0.79, 1500, 3, 2));
        assertEquals("misses", AdmissionReport.verdict(0.95, 2000, 3, 2));
        assertEquals("meets (sketch: 1 run from 1 invocation)", AdmissionReport.verdict(0.9, 100, 1, 1));
        assertEquals("meets (sketch: 3 runs from 1 invocation)", AdmissionReport.verdict(0.9, 100, 3, 1));
        assertEquals("no run started idle", AdmissionReport.verdict(Double.NaN, Double.NaN, 0, 0));
        assertEquals(List.of("open 1.2x", "open 2.0x", "closed 2000", "retry-after 2000"),
                AdmissionBench.variants(java.util.EnumSet.allOf(AdmissionBench.Loop.class)).stream().map(AdmissionBench.Variant::name).toList());
        assertEquals(List.of("retry-after 2000"),
                AdmissionBench.variants(java.util.EnumSet.of(AdmissionBench.Loop.RETRY_AFTER)).stream().map(AdmissionBench.Variant::name).toList());
    }

    /** Each run's goodput is over its own limit's capacity (invocations calibrate apart), and --rerender writes the table again from the CSV alone. */
    @Test
    void eachRunIsMeasuredAgainstItsOwnLimitAndTheTableRerenders(@TempDir Path dir) throws Exception {
        AdmissionBench.Row at35 = new AdmissionBench.Row(1, 1, "loom", "open 2.0x", 35, "fixed", 70, 2100, 1050, 1050, 0, 35, 1900, 2400, 2400, true, 0.1, CpuSplit.NONE, null);
        AdmissionBench.Row at34 = new AdmissionBench.Row(2, 1, "loom", "open 2.0x", 34, "fixed", 68, 2040, 1020, 1020, 0, 34, 1900, 2400, 2400, true, 0.1, CpuSplit.NONE, null);
        assertEquals(1.0, AdmissionReport.share(at35), 1e-9);
        assertEquals(1.0, AdmissionReport.share(at34), 1e-9);
        RunResult.When when = new RunResult.When("s", "e", "1.0");
        Files.writeString(dir.resolve("admission.csv"), AdmissionReport.TABLE.text(List.of(new Timed<>(at35, when), new Timed<>(at34, when))));
        AdmissionReport.writeBody(dir, "# Admission\n\nthe head, kept\n\n", List.of(at35), java.time.Duration.ofSeconds(30));
        AdmissionBench.rerender(dir, java.time.Duration.ofSeconds(30), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        String md = Files.readString(dir.resolve("admission.md"));
        assertTrue(md.startsWith("# Admission\n\nthe head, kept\n\n" + AdmissionReport.BODY_START), md);
        assertTrue(md.contains("| loom | open 2.0x | 2 / 2 | 2 | 1.00 |"), "both runs, each at its own capacity: " + md);
        Path empty = Files.createDirectories(dir.resolve("empty"));
        UsageError e = assertThrows(UsageError.class, () -> AdmissionBench.rerender(empty, java.time.Duration.ofSeconds(30), System.out));
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    /**
     * Limits compared side by side: each gets its own rows; a run the engine's rules mark (client-limited: client and
     * server kept the machine busy; machine full: client, server and the rest did) is left out of the medians and listed
     * with why; a cell with every run marked decides nothing; a run whose split was not recorded is not marked, and the
     * page says it cannot be judged.
     */
    @Test
    void limitsAreComparedAndMarkedRunsDecideNothing(@TempDir Path dir) throws Exception {
        CpuSplit quiet = CpuSplit.of(20, 6, 30, 2, 50, 90);
        CpuSplit limited = CpuSplit.of(54, 3, 30, 2, 97, 90);
        CpuSplit full = CpuSplit.of(30, 6, 30, 2, 95, 90);
        assertEquals(List.of(), quiet.marks(), "a third of the machine the server's, a tenth the client's, half of it busy: the server's run");
        assertEquals(90.0, limited.serverPct(), 1e-9);
        assertEquals(5.0, limited.clientPct(), 1e-9);
        assertEquals(List.of("client-limited", "machine full"), limited.marks(), "client and server 95 % of the machine");
        assertEquals(List.of("machine full"), full.marks(), "client and server 60 %, but the rest of the machine filled it to 95 %");
        List<AdmissionBench.Row> rows = new java.util.ArrayList<>();
        for (int inv = 1; inv <= 2; inv++) {
            for (int rep = 1; rep <= 2; rep++) {
                rows.add(new AdmissionBench.Row(inv, rep, "loom", "open 2.0x", 35, "fixed", 70, 2100, 1050, 1050, 0, 35, 1900, 1900, 2400, true, 0.1, quiet, null));
                rows.add(new AdmissionBench.Row(inv, rep, "loom", "open 2.0x", 35, "auto", 70, 2100, 1000, 1100, 0, 33, 1500, 1800, 2400, true, 0.1,
                        rep == 1 ? limited : full, null));
            }
        }
        rows.add(new AdmissionBench.Row(2, 3, "loom", "open 2.0x", 35, "fixed", 70, 2100, 1050, 1050, 0, 35, 1900, 1900, 2400, true, 0.1, CpuSplit.NONE, null));
        AdmissionReport.writeBody(dir, "# Admission\n\n", rows, java.time.Duration.ofSeconds(30));
        String md = Files.readString(dir.resolve("admission.md"));
        assertTrue(md.contains("| pool | load | limit | runs (deciding / all) |"), md);
        assertTrue(md.contains("| loom | open 2.0x | fixed | 5 / 5 | 2 | 1.00 |"), "the unrecorded run is not marked: " + md);
        assertTrue(md.contains("| loom | open 2.0x | auto | 0 / 4 | 0 |"), md);
        assertTrue(md.contains("not decided: every run marked"), md);
        assertTrue(md.contains("auto: client-limited, machine full (server 90 %, client 5 %, machine 97 % busy)"), md);
        assertTrue(md.contains("auto: machine full (server 50 %, client 10 %, machine 95 % busy)"), md);
        assertTrue(md.contains("| 19.05 | 33 / 10 / 50 |"), "server CPU per 2xx (20 s over the run's 1,050 answers), the deciding runs' split: " + md);
        assertTrue(md.contains("not recorded for 1 run") && md.contains("cannot be judged"), md);
    }

    /** The split and its marks are columns of admission.csv that read back; a file from before them reads as not recorded. */
    @Test
    void theSplitReadsBackAndAnOlderFileReadsAsNotRecorded() {
        RunResult.When when = new RunResult.When("s", "e", "1.0");
        AdmissionBench.Row row = new AdmissionBench.Row(1, 1, "loom", "closed 2000", 35, "fixed", 0, 2100, 600, 1500, 0, 20, 2500, 4200, 1700, true, 1.2,
                CpuSplit.of(48, 10, 30, 2, 98, 90), null);
        String text = AdmissionReport.TABLE.text(List.of(new Timed<>(row, when)));
        for (String column : List.of("server_cpu_s", "client_cpu_s", "client_cpu_pct", "machine_busy_pct", "client_limited", "machine_full"))
            assertTrue(AdmissionReport.TABLE.columnNames().contains(column), column);
        CpuSplit back = AdmissionReport.TABLE.parse(text).getFirst().row().split();
        assertEquals(10, back.clientCpuS(), 1e-9);
        assertEquals(List.of("client-limited", "machine full"), back.marks());
        assertEquals(text, AdmissionReport.TABLE.text(AdmissionReport.TABLE.parse(text)));
        String old = "invocation,repeat,pool,load,max_in_flight,offered_rps,sent,ok,refused,errors,goodput_rps,ok_p50_ms,ok_p99_ms,all_p99_ms,idle_before,"
                + "recovered,recovery_s,started,ended,load_average,failure\n1,1,loom,closed 2000,36,0,472221,626,471595,0,20.87,2573.3,4262.1,1729.6,true,"
                + "true,1.26,2026-11-26T20:08:17Z,2026-11-26T20:08:57Z,6.02,\n";
        CpuSplit none = AdmissionReport.TABLE.parse(old).getFirst().row().split();
        assertTrue(!none.recorded() && none.marks().isEmpty() && Double.isNaN(none.serverCpuS()), none.toString());
    }

    @Test
    void theLimitsFlagReadsFixedNoneAndAutoAndRefusesTheRestInOneLine() {
        assertEquals(List.of("fixed"), AdmissionBench.limits(Flags.parse(new String[] {"--preset", "admission"}, BenchFlags.FLAGS, Map.of())));
        assertEquals(List.of("fixed", "auto", "auto:vegas", "none"),
                AdmissionBench.limits(Flags.parse(new String[] {"--preset", "admission", "--limits", "fixed,auto,auto:vegas,none,fixed"}, BenchFlags.FLAGS, Map.of())));
        assertEquals(List.of(), AdmissionBench.limitFlags("none", 35));
        assertEquals(List.of("--max-in-flight", "35", "--max-in-flight-wait-ms", "1000"), AdmissionBench.limitFlags("fixed", 35));
        assertEquals(List.of("--max-in-flight", "auto:aimd", "--max-in-flight-wait-ms", "1000"), AdmissionBench.limitFlags("auto:aimd", 35));
    }

    @Test
    void flagsItDoesNotReadAreRefusedInOneLine() {
        for (String[] args : List.of(new String[] {"--pools", "nope"}, new String[] {"--duration", "1500ms"}, new String[] {"--repeat", "0"}, new String[] {"--loads", "open,sometimes"},
                new String[] {"--limits", "35"}, new String[] {"--limits", "auto:magic"})) {
            Flags flags = Flags.parse(java.util.stream.Stream.concat(java.util.stream.Stream.of("--preset", "admission", "--out", "x"),
                    java.util.stream.Stream.of(args)).toArray(String[]::new), BenchFlags.FLAGS, Map.of());
            UsageError e = assertThrows(UsageError.class,
                    () -> AdmissionBench.run(flags, "test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)), String.join(" ", args));
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    /** Smoke size: one pool, 2 s windows, one repeat: four runs that start idle and recover; the open loops get 2xx answers. */
    @IntegrationTest
    @Test
    void smokeRunWritesARowPerRunTheTableAndProvenance(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        String[] args = {"--preset", "admission", "--pools", "loom", "--duration", "2s", "--repeat", "1", "--limits", "fixed,auto", "--out", out.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        AdmissionBench.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "bench " + String.join(" ", args), new PrintStream(log, true, StandardCharsets.UTF_8));

        List<String> csv = Files.readAllLines(out.resolve("admission.csv"));
        assertEquals(AdmissionReport.TABLE.header(), csv.get(0));
        assertEquals(1 + 8, csv.size(), String.join("\n", csv));
        List<String> header = AdmissionReport.TABLE.columnNames();
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
            assertEquals(header.size(), f.length, line);
            assertEquals("", f[header.indexOf("failure")], "no failure: " + line);
            assertEquals("true", f[header.indexOf("idle_before")], "the warm-up left nothing admitted or queued: " + line);
            assertEquals("true", f[header.indexOf("recovered")], "answers promptly after the load: " + line);
            assertSplitByTheEnginesRule(header, f, line);
            if (f[header.indexOf("load")].startsWith("open"))
                assertTrue(Long.parseLong(f[header.indexOf("ok")]) > 0, "an open loop below twice the capacity gets 2xx answers: " + line);
        }
        String md = Files.readString(out.resolve("admission.md"));
        for (String s : List.of("## Provenance", "| loom | open 1.2x | fixed |", "| loom | open 1.2x | auto |", "| loom | closed 2000 | auto |",
                "| loom | retry-after 2000 | fixed |", "Limits compared")) assertTrue(md.contains(s), s + ": " + md);
        Map<?, ?> provenance = (Map<?, ?>) Json.parse(Files.readString(out.resolve("provenance.json")));
        assertTrue(String.valueOf(provenance.get("command")).contains("--preset admission"), provenance.toString());
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("bench: done"), log.toString(StandardCharsets.UTF_8));
        var back = AdmissionReport.TABLE.read(out.resolve("admission.csv"));
        assertEquals(8, back.size());
        assertEquals(csv.get(1), AdmissionReport.TABLE.line(back.getFirst()), "a row read back writes the same line");
    }

    /**
     * A run's row carries the server JVM's CPU (more than none: it answered), the load generator's and the machine's busy
     * share, and its marks are the engine's rules on those shares at the default 90 % ({@link ClientLimit}); a share
     * within the rounding of the threshold is not re-judged from its rounded figure.
     */
    static void assertSplitByTheEnginesRule(List<String> header, String[] f, String line) {
        double server = Double.parseDouble(f[header.indexOf("server_cpu_s")]);
        double client = Double.parseDouble(f[header.indexOf("client_cpu_s")]);
        double serverPct = Double.parseDouble(f[header.indexOf("server_cpu_pct")]);
        double clientPct = Double.parseDouble(f[header.indexOf("client_cpu_pct")]);
        double busy = Double.parseDouble(f[header.indexOf("machine_busy_pct")]);
        assertTrue(server > 0, "the server's CPU over the load: " + line);
        assertTrue(client >= 0 && clientPct >= 0, "the client's CPU over the load: " + line);
        assertTrue(busy >= 0 && busy <= 100, "the machine's busy share: " + line);
        int limit = ClientLimit.DEFAULT_PCT;
        int cores = Runtime.getRuntime().availableProcessors();
        if (Math.abs(clientPct - limit) > 0.1 && Math.abs(clientPct + serverPct - limit) > 0.2)
            assertEquals(Boolean.toString(ClientLimit.of(clientPct, serverPct, cores, cores, true, limit)), f[header.indexOf("client_limited")], line);
        if (Math.abs(busy - limit) > 0.1)
            assertEquals(Boolean.toString(ClientLimit.machineFull(busy, limit)), f[header.indexOf("machine_full")], line);
    }

    /** Every committed admission.csv reads back and writes the same. */
    @Test
    void theCommittedResultsReadBack() {
        loomylin.testing.CommittedCsv.assertRoundTrips(AdmissionReport.TABLE, "admission.csv");
    }
}
