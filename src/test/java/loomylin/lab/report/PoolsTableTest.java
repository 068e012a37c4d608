package loomylin.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pools table's cell, and the hop-clients and memory tables' notes, say how many of their runs the bench marked, so that no reader takes a marked run for a deciding one. */
class PoolsTableTest {
    private static Run run(String settled, String clientLimited) {
        return new Run(Map.of("pool", "loom", "endpoint", "e", "concurrency", "1000", "mode", "open", "offered_rps", "300", "rps", "299",
                "p99_ms", "150", "settled", settled, "client_limited", clientLimited, "too_short", "false"));
    }

    @Test
    void aCellCountsItsMarkedRuns() {
        String cell = PoolsTable.cell(List.of(run("true", "false"), run("false", "true"), run("true", "true")));
        assertEquals("299 req/s, p99 150 ms, marked: 1 unsettled, 2 client-limited of 3 runs", cell);
    }

    @Test
    void aTablesNoteCountsTheMarkedRunsOrSaysThereAreNone() {
        assertEquals("Marked by the bench: 1 unsettled, 1 client-limited of 2 runs.", Run.marksNote(List.of(run("false", "false"), run("true", "true"))));
        assertEquals("No run here is marked too short, unsettled or client-limited.", Run.marksNote(List.of(run("true", "false"))));
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
