package loomylin.lab.experiment.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import loomylin.lab.bench.BenchFlags;
import loomylin.lab.engine.run.Calibration;
import loomylin.lab.engine.run.ClientLimit;
import loomylin.lab.engine.run.CpuSplit;
import loomylin.lab.engine.output.Charts;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.json.Json;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench --preset bound: its limits from Little's law, its reading of a run, its usage errors, and a smoke-sized real run. */
class BoundTest {

    @Test
    void theLimitIsLittlesLawOnTheCoresWithTheRequestsBusyTime() {
        Calibration cal = new Calibration(1000, 10_000); // 1000 SHA-256 iterations and 10 000 file bytes per ms
        // 50 ms of CPU + 10 ms of file = 60 ms busy per 1 s request: 2 cores finish 33 per second, 33 in progress at once
        assertEquals(33, Bound.littlesLimit(cal, 2, "mixed?cpu=50000&sleep=800&file=100000", 1000));
        assertEquals(4, Bound.littlesLimit(cal, 4, "mixed?cpu=100000&sleep=0&file=0", 100));
        assertEquals(1, Bound.littlesLimit(cal, 1, "mixed?cpu=1000000&sleep=0&file=0", 10), "at least one");
    }

    @Test
    void aRunSaysWhereTheExcessWent() {
        assertEquals("refuses", row(900, 100, -1, 0, 0).behaviour());
        assertEquals("queues (Jetty's queue)", row(1000, 0, 900, -1, 0).behaviour());
        assertEquals("queues (permit waits)", row(1000, 0, 0, 300, 2).behaviour());
        assertEquals("queues (carrier queue), collapses", row(3, 0, -1, -1, 1500).behaviour());
        assertEquals("keeps up", row(5000, 0, 0, -1, 0).behaviour());
    }

    private static Bound.Row row(long ok, long refused, double poolQueued, double tasksWaiting, double carrierQueued) {
        return new Bound.Row(1, "cpu", "loom", 0, 1000, "/q", ok + refused, ok, refused, 0, ok / 20.0, 100, poolQueued, -1, tasksWaiting,
                carrierQueued, 30, 40, 10, 10, 0.1, 0, CpuSplit.NONE, null);
    }

    /**
     * bound.md shows each run's CPU split and its marks, by the engine's rules: a run whose machine was full is marked,
     * one whose split was not recorded (a file from before it) reads "not recorded" and the page says it cannot be judged.
     */
    @Test
    void thePageShowsEachRunsSplitAndMarks(@TempDir Path dir) throws Exception {
        Bound.Load cpu = new Bound.Load("cpu", "the seed's 1 s request", "/mixed?cpu=1", 2000, 35, List.of("qtp:64", "loom", "jetty-vtp"));
        List<Bound.Row> rows = List.of(
                new Bound.Row(1, "cpu", "qtp:64", 0, 2000, "/q", 400, 400, 0, 0, 20, 100, 900, -1, -1, 0, 90, 96, 10, 10, 0.1, 0,
                        CpuSplit.of(24, 6, 20, 2, 80, ClientLimit.DEFAULT_PCT), null),
                new Bound.Row(1, "cpu", "loom", 0, 2000, "/q", 400, 3, 0, 0, 0.2, 100, 0, -1, -1, 900, 35, 37, 10, 10, Double.NaN, 0,
                        CpuSplit.of(34, 4, 20, 2, 99, ClientLimit.DEFAULT_PCT), null),
                new Bound.Row(1, "cpu", "jetty-vtp", 0, 2000, "/q", 400, 3, 0, 0, 0.2, 100, 0, -1, -1, 900, 35, 37, 10, 10, Double.NaN, 0, CpuSplit.NONE, null));
        BoundReport.write(dir, 1, loomylin.lab.engine.output.Provenance.read(Path.of("gfx", "results", "bound")), List.of(cpu), rows, java.time.Duration.ofSeconds(20), 2);
        String md = Files.readString(dir.resolve("bound.md"));
        assertTrue(md.contains("| CPU % server, client, machine | marked |"), md);
        assertTrue(md.contains("| 60, 15, 80 | - |"), "an unmarked run's split: " + md);
        assertTrue(md.contains("| 85, 10, 99 | client-limited, machine full |"), "client and server 95 %: both marks: " + md);
        assertTrue(md.contains("| not recorded | not recorded |"), md);
        assertTrue(md.contains("not recorded for 1 run") && md.contains("cannot be judged"), md);
        assertEquals(Charts.WIDTH, ImageIO.read(dir.resolve("bound-cpu.png").toFile()).getWidth());
    }

    @Test
    void badOverridesAreUsageErrors() {
        for (String[] args : List.of(new String[] {"--concurrency", "1000,2000"}, new String[] {"--concurrency", "10,0,10"},
                new String[] {"--duration", "1500ms"}, new String[] {"--pools", "qtp-vtp:8"}, new String[] {"--heap", "lots"})) {
            Flags flags = Flags.parse(Stream.concat(Stream.of("--preset", "bound"), Stream.of(args)).toArray(String[]::new), BenchFlags.FLAGS, Map.of());
            UsageError e = assertThrows(UsageError.class,
                    () -> Bound.run(flags, "test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)), String.join(" ", args));
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    /** Smoke size: one capped platform pool, small loads, 2 s windows; every output file, and the figures that must move. */
    @IntegrationTest
    @Test
    void smokeRunWritesEveryRowTheTablesChartsAndProvenance(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        String[] args = {"--preset", "bound", "--pools", "qtp:8", "--concurrency", "40,8,8", "--duration", "2s", "--out", out.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Bound.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "bench " + String.join(" ", args), new PrintStream(log, true, StandardCharsets.UTF_8));

        List<String> csv = Files.readAllLines(out.resolve("bound.csv"));
        assertEquals(BoundReport.TABLE.header(), csv.get(0));
        assertEquals(1 + 3 * 2, csv.size(), "three loads, without and with the limit: " + String.join("\n", csv));
        List<String> header = BoundReport.TABLE.columnNames();
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
            assertEquals(header.size(), f.length, line);
            assertEquals("", f[header.indexOf("failure")], "no failure: " + line);
            assertEquals("true", f[header.indexOf("recovered")], "answers promptly after the load: " + line);
            boolean limited = !"0".equals(f[header.indexOf("max_in_flight")]);
            assertEquals(limited, !f[header.indexOf("admission_queued_peak")].isEmpty(), "the limit's queue is read when there is a limit: " + line);
            AdmissionBenchTest.assertSplitByTheEnginesRule(header, f, line);
        }
        String blocking = csv.get(1);
        assertTrue(blocking.startsWith("1,blocking,qtp:8,0,40,"), "the first invocation into a new --out: " + blocking);
        assertTrue(Double.parseDouble(blocking.split(",")[header.indexOf("pool_queued_peak")]) >= 1,
                "40 clients on 6 request threads queue in Jetty's queue: " + blocking);
        assertTrue(csv.get(5).startsWith("1,bodies,jetty-vtp:400,0,8,"), csv.get(5));

        List<String> series = Files.readAllLines(out.resolve("bound-series.csv"));
        assertEquals("invocation,load,pool,max_in_flight," + QueueSampler.SERIES_HEADER, series.get(0));
        for (String run : List.of("1,blocking,qtp:8,0,", "1,cpu,qtp:8,0,", "1,bodies,jetty-vtp:400,0,"))
            assertTrue(series.stream().anyMatch(l -> l.startsWith(run)), "scrapes of " + run + " in " + String.join("\n", series));
        int poolQueued = 4 + List.of(QueueSampler.SERIES_HEADER.split(",")).indexOf("pool_queued");
        assertTrue(series.stream().filter(l -> l.startsWith("1,blocking,qtp:8,0,")).anyMatch(l -> Double.parseDouble(l.split(",", -1)[poolQueued]) >= 1),
                "the queue of the blocking run, scrape by scrape");

        String md = Files.readString(out.resolve("bound.md"));
        for (String section : List.of("## Provenance", "## blocking", "## cpu", "## bodies", "](bound-cpu.png)")) assertTrue(md.contains(section), section + ": " + md);
        for (String load : List.of("blocking", "cpu", "bodies")) {
            BufferedImage png = ImageIO.read(out.resolve("bound-" + load + ".png").toFile());
            assertEquals(Charts.WIDTH, png.getWidth());
            assertEquals(Charts.HEIGHT, png.getHeight());
        }
        Map<?, ?> provenance = (Map<?, ?>) Json.parse(Files.readString(out.resolve("provenance.json")));
        assertTrue(String.valueOf(provenance.get("command")).contains("--preset bound"), provenance.toString());
        assertTrue(provenance.containsKey("duration_s"), "the finished invocation says how long it took: " + provenance);
        assertTrue(Files.readString(out.resolve("servers.log")).contains("=== blocking qtp:8 no limit invocation 1 round 1\n"), "each run headed in the log");
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("bench: done"), log.toString(StandardCharsets.UTF_8));
    }

    /**
     * Every committed bound.csv reads back and writes the same; one written before the invocation column reads it as 0,
     * one written before the CPU split reads every run's as not recorded (unmarked, and not judged).
     */
    @Test
    void theCommittedResultsReadBack() throws java.io.IOException {
        loomylin.testing.CommittedCsv.assertRoundTrips(BoundReport.TABLE, "bound.csv");
        for (Path file : loomylin.testing.CommittedCsv.named("bound.csv")) {
            if (!Files.readString(file).startsWith("invocation,"))
                assertEquals(List.of(0), BoundReport.TABLE.read(file).stream().map(Bound.Row::invocation).distinct().toList(), file.toString());
            if (!Files.readString(file).contains(",machine_full,"))
                assertTrue(BoundReport.TABLE.read(file).stream().noneMatch(r -> r.cpu().recorded() || r.cpu().marked()), file.toString());
        }
    }
}
