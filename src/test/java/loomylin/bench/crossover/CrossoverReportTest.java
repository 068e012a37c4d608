package loomylin.bench.crossover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import loomylin.bench.load.Client;
import loomylin.bench.measure.Measured;
import loomylin.bench.output.Spread;
import loomylin.bench.run.Endpoint;
import loomylin.bench.run.RunResult;
import loomylin.bench.run.RunSpec;
import loomylin.jetty.PoolKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the crossover's rows say: ratios against the best pool per repeat, the crossover sentence, the heat maps. */
class CrossoverReportTest {

    private static Crossover.Row row(int wait, double cpu, Grid.Role role, PoolKind pool, int repeat, double rps, double p99) {
        return row(wait, cpu, role, pool, repeat, rps, p99, rps, false);
    }

    /** A finished run of a 200 s window (enough answers per client) whose warm-up made {@code warmupRps}. */
    private static Crossover.Row row(int wait, double cpu, Grid.Role role, PoolKind pool, int repeat, double rps, double p99, double warmupRps,
                                     boolean clientLimited) {
        Grid.Run run = new Grid.Run(new Grid.Cell(wait, cpu), role, pool, Endpoint.parse("mixed?cpu=1&sleep=" + wait + "&file=0"), repeat);
        RunSpec spec = new RunSpec(pool, run.endpoint(), 400, 0, Client.WRK, repeat);
        long n = Math.round(rps * 200);
        RunResult r = new RunResult(spec, "java", n, n, n, 0, 200, rps, warmupRps, new Measured.Latency(p99 / 2, p99, p99, p99, p99), n * 0.001,
                100_000, 120_000, 3_000_000, 30, 1, 10, 50, clientLimited, 0);
        return new Crossover.Row(run, r, null);
    }

    /** The settle gate and the client-limited exclusion: such a run decides nothing, and a cell left without deciding runs is undecided. */
    @Test
    void onlySettledRunsTheClientDidNotLimitDecide() {
        List<Crossover.Row> rows = new ArrayList<>(List.of(
                row(5, 1, Grid.Role.LOOM, PoolKind.loom(), 1, 200, 10, 200, true), // client-limited
                row(5, 1, Grid.Role.QTP200, PoolKind.qtp(200), 1, 100, 20),
                row(5, 1, Grid.Role.LITTLE, PoolKind.qtp(44), 1, 150, 40, 80, false))); // 150 in the window after 80 in the warm-up: a ramp
        assertEquals(0, CrossoverReport.ratio(rows, new Grid.Cell(5, 1), CrossoverReport.Metric.THROUGHPUT, CrossoverReport.Versus.PLATFORM).count(),
                "loom's only run was client-limited: undecided");
        rows.add(row(5, 1, Grid.Role.LOOM, PoolKind.loom(), 2, 120, 10));
        rows.add(row(5, 1, Grid.Role.QTP200, PoolKind.qtp(200), 2, 100, 20));
        rows.add(row(5, 1, Grid.Role.LITTLE, PoolKind.qtp(44), 2, 150, 40, 80, false));
        Spread s = CrossoverReport.ratio(rows, new Grid.Cell(5, 1), CrossoverReport.Metric.THROUGHPUT, CrossoverReport.Versus.PLATFORM);
        assertEquals(1, s.count(), "repeat 2 decides");
        assertEquals(1.2, s.median(), 1e-9, "against qtp:200's 100, not the unsettled little pool's 150");
        assertEquals("client-limited", CrossoverReport.mark(rows.get(0).result()));
        assertEquals("unsettled", CrossoverReport.mark(rows.get(2).result()));
        assertEquals("", CrossoverReport.mark(rows.get(1).result()));
    }

    /** A cell where loom makes {@code loomRps} and the two platform pools 100 and {@code littleRps}. */
    private static List<Crossover.Row> cell(int wait, double cpu, int repeat, double loomRps, double littleRps) {
        return List.of(row(wait, cpu, Grid.Role.LOOM, PoolKind.loom(), repeat, loomRps, 10),
                row(wait, cpu, Grid.Role.QTP200, PoolKind.qtp(200), repeat, 100, 20),
                row(wait, cpu, Grid.Role.LITTLE, PoolKind.qtp(44), repeat, littleRps, 40),
                row(wait, cpu, Grid.Role.ASYNC, PoolKind.qtp(32), repeat, 50, 5));
    }

    @Test
    void theRatioIsAgainstTheBetterPlatformPoolPerRepeatWithTheRangeOverRepeats() {
        List<Crossover.Row> rows = new ArrayList<>(cell(5, 1, 1, 120, 150));
        rows.addAll(cell(5, 1, 2, 90, 60));
        Spread s = CrossoverReport.ratio(rows, new Grid.Cell(5, 1), CrossoverReport.Metric.THROUGHPUT, CrossoverReport.Versus.PLATFORM);
        assertEquals(0.8, s.min(), 1e-9); // 120 / 150
        assertEquals(0.9, s.max(), 1e-9); // 90 / 100
    }

    @Test
    void forLatencyTheBestPlatformPoolIsTheLowest() {
        Spread s = CrossoverReport.ratio(cell(5, 1, 1, 100, 100), new Grid.Cell(5, 1), CrossoverReport.Metric.P99, CrossoverReport.Versus.PLATFORM);
        assertEquals(0.5, s.median(), 1e-9); // 10 ms against qtp:200's 20
    }

    @Test
    void asyncIsItsOwnComparison() {
        Spread s = CrossoverReport.ratio(cell(5, 1, 1, 100, 100), new Grid.Cell(5, 1), CrossoverReport.Metric.THROUGHPUT, CrossoverReport.Versus.ASYNC);
        assertEquals(2.0, s.median(), 1e-9);
    }

    @Test
    void theSentenceNamesTheLeastWaitFromWhichLoomMatchesAtEveryLongerWait() {
        List<Crossover.Row> rows = new ArrayList<>();
        rows.addAll(cell(0, 1, 1, 80, 100));
        rows.addAll(cell(5, 1, 1, 99, 100));
        rows.addAll(cell(20, 1, 1, 90, 100)); // below the match again: 5 ms is not the crossover
        rows.addAll(cell(100, 1, 1, 150, 100));
        rows.addAll(cell(0, 4, 1, 50, 100));
        rows.addAll(cell(100, 4, 1, 60, 100));
        String sentence = CrossoverReport.sentence(rows);
        assertTrue(sentence.contains("from a wait of 100 ms with 1 ms of CPU per request (1.50x there)"), sentence);
        assertTrue(sentence.contains("with 4 ms of CPU at no wait measured up to 100 ms"), sentence);
    }

    @Test
    void theHeatMapsAreAPngOfThreeMaps(@TempDir Path dir) throws Exception {
        List<Crossover.Row> rows = new ArrayList<>(cell(0, 1, 1, 80, 100));
        rows.addAll(cell(5, 1, 1, 99, 100));
        Path png = dir.resolve(CrossoverReport.Versus.PLATFORM.fileName());
        assertTrue(CrossoverReport.heatMaps(png, rows, CrossoverReport.Versus.PLATFORM));
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(3 * 600, image.getWidth());
    }

    @Test
    void betterForLoomIsGreenAndWorseIsRed() {
        assertTrue(CrossoverReport.colour(2, true).getGreen() > CrossoverReport.colour(2, true).getRed());
        assertTrue(CrossoverReport.colour(2, false).getRed() > CrossoverReport.colour(2, false).getGreen()); // twice the latency
    }
}
