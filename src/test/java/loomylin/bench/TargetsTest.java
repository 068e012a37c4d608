package loomylin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import loomylin.jetty.PoolKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetsTest {

    private static RunResult row(String pool, String endpoint, int c, double rps, double p99, long idleKb, long peakKb, int threads) {
        RunSpec spec = new RunSpec(PoolKind.parse(pool), Endpoint.parse(endpoint), c, c * 5);
        return new RunResult(spec, "java", c * 5, c * 5, c * 5, 0, 1, rps, 1, 2, p99, p99, 1, idleKb, peakKb, 1, threads, 0.1, 5, 50, false);
    }

    private static List<RunResult> aFullBench() {
        List<RunResult> rows = new ArrayList<>();
        rows.add(row("loom", "wait-blocking?ms=100", 50, 495, 110, 0, 0, 30));
        rows.add(row("qtp:4", "computational", 50, 900, 100, 0, 0, 25));
        rows.add(row("loom", "computational", 50, 950, 125, 0, 0, 31));
        rows.add(row("loom", "wait-blocking?ms=100", 2000, 9000, 300, 0, 0, 33));
        rows.add(row("loom", "wait-async?ms=100", 2000, 10000, 250, 0, 0, 29));
        rows.add(row("loom", "hops-blocking", 1000, 2100, 600, 0, 0, 27));
        rows.add(row("loom", "hops-async", 1000, 2000, 650, 0, 0, 27));
        rows.add(row("loom", "wait-blocking?ms=1000", 2000, 1900, 1100, 600_000, 640_000, 28));
        rows.add(row("qtp:2500", "wait-blocking?ms=1000", 2000, 1800, 1200, 700_000, 800_000, 2530));
        return rows;
    }

    private static List<String> verdicts(List<Targets.Target> targets) {
        return targets.stream().map(t -> t.id() + " " + t.valueText() + " " + t.result()).toList();
    }

    @Test
    void computesEveryTargetFromTheRows() {
        assertEquals(List.of("P1 0.990 PASS", "P2 1.056 PASS", "P2 1.250 MISS", "P3 0.900 MISS", "P4 1.050 PASS",
                "P5 33 MISS", "P6 0.400 PASS"), verdicts(Targets.evaluate(aFullBench(), 2)));
    }

    @Test
    void theThreadBoundFollowsTheCores() {
        assertEquals("P5 33 PASS", verdicts(List.of(Targets.p5(aFullBench(), 8))).get(0));
    }

    @Test
    void missingRunsAreNotApplicableNotMisses() {
        List<Targets.Target> none = Targets.evaluate(List.of(row("qtp:4", "computational", 50, 900, 100, 0, 0, 25)), 2);
        assertEquals(List.of("P1 n/a n/a", "P2 n/a n/a", "P2 n/a n/a", "P3 n/a n/a", "P4 n/a n/a", "P5 n/a n/a", "P6 n/a n/a"), verdicts(none));
    }

    @Test
    void waitsCompareOnlyAtTheSameLength() {
        List<RunResult> rows = List.of(row("loom", "wait-blocking?ms=100", 2000, 9000, 1, 0, 0, 1),
                row("loom", "wait-async?ms=50", 2000, 9000, 1, 0, 0, 1));
        assertEquals("n/a", Targets.p3(rows).result());
        assertEquals("PASS", Targets.p3(List.of(row("loom", "wait-blocking", 2000, 9600, 1, 0, 0, 1),
                row("loom", "wait-async?ms=100", 2000, 10000, 1, 0, 0, 1))).result()); // no ms = the default 100
    }

    @Test
    void writesTargetsCsv(@TempDir Path dir) throws IOException {
        Targets.writeCsv(dir.resolve("targets.csv"), Targets.evaluate(aFullBench(), 2));
        List<String> lines = Files.readAllLines(dir.resolve("targets.csv"));
        assertEquals("id,what,value,goal,result,detail,runs", lines.get(0));
        assertEquals(8, lines.size());
        assertEquals("P1", lines.get(1).substring(0, 2));
        assertEquals(true, lines.get(1).contains(",0.9900,>= 0.98,PASS,"));
    }
}
