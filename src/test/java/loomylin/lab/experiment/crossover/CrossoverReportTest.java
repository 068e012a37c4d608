package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.run.FixedLoad;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import loomylin.lab.experiment.crossover.Crossover.Phase;
import loomylin.lab.experiment.crossover.Crossover.Role;
import loomylin.lab.experiment.crossover.Crossover.Row;
import loomylin.lab.experiment.crossover.CrossoverReport.Metric;
import loomylin.server.jetty.PoolKind;
import loomylin.server.cli.Csv;
import org.junit.jupiter.api.Test;

/** crossover.md from given rows: the settle gate, the client-limited exclusion, ratios of answers, the A/A noise line across invocations and the sweep's pick. */
class CrossoverReportTest {
    private static final Grid.Cell CELL = Grid.Cell.parse("sleep5+cpu0.25");
    private static final PoolKind LOOM = PoolKind.loom();
    private static final PoolKind QTP200 = PoolKind.qtp(200);

    /** A 20 s run at 1,000 req/s: 20,000 answers, {@code msPerAnswer} of server CPU each, oha done in {@code wallS}. */
    static FixedLoad.Window window(double msPerAnswer, double p99, double wallS, boolean settled, boolean clientLimited) {
        return new FixedLoad.Window(2, settled, 7, 1000, 20, wallS, 20_000, 0, msPerAnswer * 20, 6, p99, p99 * 2, 20, 30, clientLimited, "", "", loomylin.lab.engine.run.Warmth.NONE);
    }

    static Row row(int invocation, Phase phase, Role role, PoolKind pool, int round, FixedLoad.Window w) {
        return new Row(invocation, CELL, 300, 40, phase, role, pool, round, Instant.parse("2026-11-26T17:00:00Z"), Instant.parse("2026-11-26T17:01:00Z"),
                0.4, w, "");
    }

    static Row compare(int invocation, Role role, PoolKind pool, int round, double ms, double p99) {
        return row(invocation, Phase.COMPARE, role, pool, round, window(ms, p99, 20, true, false));
    }

    /** Two rounds in each of two invocations of loom and qtp:200, loom costing {@code loomMs}, qtp:200 0.30 (0.33 in second rounds). */
    static List<Row> twoInvocations(double loomMs) {
        List<Row> rows = new ArrayList<>();
        for (int invocation = 1; invocation <= 2; invocation++) {
            for (int round = 1; round <= 2; round++) {
                rows.add(compare(invocation, Role.VIRTUAL, LOOM, round, loomMs, 10));
                rows.add(compare(invocation, Role.DEFAULT, QTP200, round, round == 1 ? 0.30 : 0.33, 10));
            }
        }
        return rows;
    }

    @Test
    void aRunSettlesOnlyWhenTwoSlicesInARowCostTheSameWithinATenth() {
        assertTrue(loomylin.lab.engine.run.Warmup.settles(0.30, 0.32));
        assertFalse(loomylin.lab.engine.run.Warmup.settles(0.30, 0.34), "13 % apart");
        assertFalse(loomylin.lab.engine.run.Warmup.settles(Double.NaN, 0.30), "no slice before it");
        assertFalse(window(0.3, 10, 20, false, false).decides());
        assertEquals(List.of("unsettled"), window(0.3, 10, 20, false, false).marks());
    }

    @Test
    void anUnsettledOrClientLimitedRunIsLeftOutOfEveryVerdictAndMarked() {
        List<Row> rows = twoInvocations(0.30);
        assertTrue(CrossoverReport.verdict(rows.stream().filter(r -> r.role() == Role.VIRTUAL).toList(),
                rows.stream().filter(r -> r.role() == Role.DEFAULT).toList(), Metric.CPU, 0.10).decided());
        rows.replaceAll(r -> r.role() == Role.VIRTUAL && r.invocation() == 2
                ? row(2, Phase.COMPARE, Role.VIRTUAL, LOOM, r.round(), window(0.01, 1, 20, true, r.round() == 1)) : r);
        rows.replaceAll(r -> r.role() == Role.VIRTUAL && r.invocation() == 2 && r.round() == 2
                ? row(2, Phase.COMPARE, Role.VIRTUAL, LOOM, 2, window(0.01, 1, 20, false, false)) : r);
        CrossoverReport.Verdict v = CrossoverReport.verdict(rows.stream().filter(r -> r.role() == Role.VIRTUAL).toList(),
                rows.stream().filter(r -> r.role() == Role.DEFAULT).toList(), Metric.CPU, 0.10);
        assertFalse(v.decided(), "the client-limited and the unsettled run are out, leaving 2 from 1 invocation: " + v);
        assertEquals(0.30 / 0.315, v.ratio(), 1e-9, "their 0.01 ms enters no figure");
        String md = CrossoverReport.report(rows);
        assertTrue(md.contains("| 2 of 4 (1 invocations) | 1 unsettled, 1 client-limited |"), md);
    }

    @Test
    void aRatioIsOfAnswersInTheWindowNeverOfTheClientsWallTime() {
        List<Row> rows = twoInvocations(0.30);
        List<Row> slowClient = new ArrayList<>(rows);
        slowClient.replaceAll(r -> r.role() == Role.VIRTUAL ? row(r.invocation(), Phase.COMPARE, Role.VIRTUAL, LOOM, r.round(), window(0.30, 10, 20.9, true, false)) : r);
        for (List<Row> r : List.of(rows, slowClient)) {
            CrossoverReport.Verdict v = CrossoverReport.verdict(r.stream().filter(x -> x.role() == Role.VIRTUAL).toList(),
                    r.stream().filter(x -> x.role() == Role.DEFAULT).toList(), Metric.CPU, 0.10);
            assertEquals(0.30 / 0.315, v.ratio(), 1e-9, "the same answers and CPU give the same ratio whatever oha's wall time");
        }
    }

    @Test
    void theNoiseLineIsTheWidestSpreadOfAPoolsMediansAcrossInvocationsAndATieIsWithinIt() {
        List<Row> rows = twoInvocations(0.30);
        assertEquals(0.0, CrossoverReport.noise(rows, Metric.CPU), 1e-9, "qtp:200's 0.30 and 0.33 in each invocation: the same median, 0.315, in both");
        assertEquals(0.0, CrossoverReport.noise(rows, Metric.P99), 1e-9);
        List<Row> moved = new ArrayList<>(rows);
        moved.replaceAll(r -> r.role() == Role.DEFAULT && r.invocation() == 2 ? compare(2, Role.DEFAULT, QTP200, r.round(), r.round() == 1 ? 0.33 : 0.363, 10) : r);
        assertEquals(0.10, CrossoverReport.noise(moved, Metric.CPU), 1e-9, "qtp:200's median 0.315 in one invocation, 0.3465 in the other");
        List<Row> loom = rows.stream().filter(r -> r.role() == Role.VIRTUAL).toList();
        List<Row> qtp = rows.stream().filter(r -> r.role() == Role.DEFAULT).toList();
        assertEquals("a tie", CrossoverReport.verdict(loom, qtp, Metric.CPU, 0.10).reading());
        List<Row> cheaper = twoInvocations(0.25);
        assertEquals("virtual threads lower", CrossoverReport.verdict(cheaper.stream().filter(r -> r.role() == Role.VIRTUAL).toList(), qtp, Metric.CPU,
                0.10).reading());
        assertTrue(CrossoverReport.verdict(loom.subList(0, 2), qtp, Metric.CPU, 0.10).reading().startsWith("undecided (2 and 4 deciding runs from 1 and 2"));
        assertTrue(Double.isNaN(CrossoverReport.noise(rows.subList(0, 4), Metric.CPU)), "one invocation: no line, however its rounds agree");
    }

    @Test
    void theSweepPicksTheCheapestPoolWhoseP99IsNearTheBest() {
        List<Row> rows = List.of(
                row(1, Phase.SWEEP, Role.SWEEP, PoolKind.qtp(8), 1, window(0.20, 900, 10, true, false)),
                row(1, Phase.SWEEP, Role.SWEEP, PoolKind.qtp(16), 1, window(0.26, 12, 10, true, false)),
                row(1, Phase.SWEEP, Role.SWEEP, PoolKind.qtp(32), 1, window(0.28, 9, 10, true, false)),
                row(1, Phase.SWEEP, Role.SWEEP, PoolKind.qtp(64), 1, window(0.10, 9, 10, true, true)));
        assertEquals(Optional.of(PoolKind.qtp(16)), CrossoverReport.best(rows, CELL), "qtp:8 is cheapest but slow; qtp:64 was client-limited");
        assertEquals(Optional.empty(), CrossoverReport.best(rows.subList(3, 4), CELL));
    }

    @Test
    void aRowSurvivesTheCsv() {
        Row r = compare(2, Role.BEST, PoolKind.qtp(16), 2, 0.3, 10);
        String text = Row.TABLE.text(List.of(r));
        Map<String, String> fields = Csv.parse(text).get(0);
        assertEquals(List.of(r), Row.TABLE.parse(text));
        assertEquals("true", fields.get("decides"));
        assertEquals("sleep", fields.get("wait"));
    }
}
