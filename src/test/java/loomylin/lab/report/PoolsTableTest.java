package loomylin.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pools table's cell, and the hop-clients and memory tables' notes, take their figures only from runs the bench did not mark, and say how many it marked. */
class PoolsTableTest {
    private static Run run(String settled, String clientLimited) {
        return run(settled, clientLimited, "299", "150");
    }

    private static Run run(String settled, String clientLimited, String rps, String p99) {
        return new Run(Map.of("pool", "loom", "endpoint", "e", "concurrency", "1000", "mode", "open", "offered_rps", "300", "rps", rps,
                "p99_ms", p99, "settled", settled, "client_limited", clientLimited, "too_short", "false"));
    }

    @Test
    void aCellsFiguresComeOnlyFromItsUnmarkedRunsAndItCountsTheOthers() {
        String cell = PoolsTable.cell(List.of(run("true", "false"), run("false", "true", "100", "900"), run("true", "true", "120", "800")));
        assertEquals("299 req/s, p99 150 ms, left out as marked: 1 unsettled, 2 client-limited of 3 runs", cell);
    }

    @Test
    void aCellWhoseRunsAreAllMarkedQuotesNoFigure() {
        String cell = PoolsTable.cell(List.of(run("false", "false", "100", "900"), run("true", "true", "120", "800")));
        assertEquals("not decided (1 unsettled, 1 client-limited of 2 runs marked)", cell);
    }

    @Test
    void aTablesNoteCountsTheMarkedRunsOrSaysThereAreNone() {
        assertEquals("Marked by the bench, and left out of every figure above: 1 unsettled, 1 client-limited of 2 runs.",
                Run.marksNote(List.of(run("false", "false"), run("true", "true"))));
        assertEquals("No run here is marked too short, cold, unsettled or client-limited.", Run.marksNote(List.of(run("true", "false"))));
    }

    @Test
    void aRatioPairsOnlyRunsNeitherOfWhichIsMarked() {
        List<Run> a = List.of(run("true", "false", "200", "1"), run("true", "true", "50", "1"));
        List<Run> b = List.of(run("true", "false", "100", "1"), run("true", "false", "100", "1"));
        // both runs are repeat 1 of invocation 1 (no repeat column): the slot pairs a's first with b's last; the marked one is out
        assertEquals(2.0, Cells.ratio(a, b, "rps").orElseThrow().median(), 1e-9);
        assertFalse(Cells.ratio(List.of(run("false", "false")), b, "rps").isPresent(), "a marked run makes no ratio");
    }

    @Test
    void aGrowingPoolSortsBesideTheFixedPoolOfItsMost() {
        List<String> pools = new java.util.ArrayList<>(List.of("loom", "qtp:8-200", "qtp:32", "qtp:200", "qtp-vtp:8:200"));
        pools.sort(PoolsTable::comparePools);
        assertEquals(List.of("qtp:32", "qtp:200", "qtp:8-200", "loom", "qtp-vtp:8:200"), pools);
    }

    @Test
    void aCellWithoutMarkedRunsSaysNothingOfMarks() {
        assertFalse(PoolsTable.cell(List.of(run("true", "false"), run("true", "false"))).contains("marked"));
    }
}
