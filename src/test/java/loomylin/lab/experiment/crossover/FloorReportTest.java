package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.run.FixedLoad;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.lab.experiment.crossover.Floor.Layer;
import loomylin.lab.experiment.crossover.Floor.Row;
import loomylin.server.jetty.PoolKind;
import loomylin.server.cli.Csv;
import org.junit.jupiter.api.Test;

/** floor.md from given rows: which runs decide, the steps per round, and the goal's verdict. */
class FloorReportTest {
    private static final PoolKind LOOM = PoolKind.loom();

    /** A run of 30 s at 1000 req/s whose CPU, less 10 ms/s idle, is {@code msPerAnswer}. */
    static Row run(int invocation, int round, Layer layer, double msPerAnswer, boolean settled, boolean clientLimited) {
        long answers = 30_000;
        double cpuS = (msPerAnswer * answers + 10 * 30) / 1000;
        return new Row(invocation, layer, LOOM, round, Instant.parse("2026-11-26T14:00:00Z"), Instant.parse("2026-11-26T14:01:00Z"), 0.5,
                new FixedLoad.Window(2, settled, 10, 1000, 30, 30, answers, 0, cpuS, 1, 2, 3, 10, 5, clientLimited, "", "", loomylin.lab.engine.run.Warmth.NONE), "");
    }

    static List<Row> rounds(double loomylinMs, double javalinMs, int... invocations) {
        List<Row> rows = new ArrayList<>();
        int round = 0;
        for (int invocation : invocations) {
            round++;
            rows.add(run(invocation, round, Layer.JAVALIN, javalinMs, true, false));
            rows.add(run(invocation, round, Layer.LOOMYLIN, loomylinMs, true, false));
        }
        return rows;
    }

    @Test
    void netCpuLeavesOutWhatTheIdleJvmSpends() {
        Row r = run(1, 1, Layer.LOOMYLIN, 0.02, true, false);
        assertEquals(0.02, r.netCpuMsPerRequest(), 1e-9);
        assertEquals(0.02 + 0.01, r.cpuMsPerRequest(), 1e-9);
        assertTrue(r.decides());
    }

    @Test
    void theGoalIsDecidedOnThreeRoundsFromTwoInvocations() {
        assertEquals("within 1.10x", FloorReport.goal(rounds(0.021, 0.020, 1, 1, 2), LOOM));
        assertEquals("past 1.10x", FloorReport.goal(rounds(0.024, 0.020, 1, 1, 2), LOOM));
        assertTrue(FloorReport.goal(rounds(0.021, 0.020, 1, 1, 1), LOOM).startsWith("undecided (3 deciding rounds from 1 invocation"));
        assertTrue(FloorReport.goal(rounds(0.021, 0.020, 1, 2), LOOM).startsWith("undecided (2 deciding rounds from 2"));
    }

    @Test
    void anUnsettledOrClientLimitedRunDecidesNothingAndIsMarked() {
        List<Row> rows = new ArrayList<>(rounds(0.021, 0.020, 1, 1, 2));
        rows.set(1, run(1, 1, Layer.LOOMYLIN, 0.05, false, false));
        rows.set(3, run(1, 2, Layer.LOOMYLIN, 0.05, true, true));
        assertFalse(rows.get(1).decides());
        assertFalse(rows.get(3).decides());
        assertTrue(FloorReport.goal(rows, LOOM).startsWith("undecided (1 deciding"), FloorReport.goal(rows, LOOM));
        String md = FloorReport.report(rows);
        assertTrue(md.contains("| `loom` | loomylin | 0.02100 | 0.03100 | 10.0 | 2.00 | 1 of 3 | 1 unsettled, 1 client-limited |"), md);
    }

    @Test
    void aRowSurvivesTheCsv() {
        Row r = run(2, 3, Layer.LOOMYLIN_CACHE, 0.02, true, false);
        String text = Row.TABLE.text(List.of(r));
        Map<String, String> fields = Csv.parse(text).get(0);
        assertEquals(List.of(r), Row.TABLE.parse(text));
        assertEquals("true", fields.get("decides"));
    }
}
