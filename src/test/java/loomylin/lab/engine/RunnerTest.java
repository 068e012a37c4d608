package loomylin.lab.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one run loop: rounds interleaved, rows kept as they end, failed runs as rows, invocations adding up in one CSV. */
class RunnerTest {
    record Row(int invocation, int round, String cell, String failure) {
    }

    /** Cells "a", "b", "c"; "b" fails to start on round 2. Records the order it was asked to measure in. */
    static class Letters implements Runner.Experiment<String, Row> {
        final List<String> order = new ArrayList<>();

        @Override
        public List<String> cells() {
            return List.of("a", "b", "c");
        }

        @Override
        public String describe(String cell) {
            return "cell " + cell;
        }

        @Override
        public Row measure(String cell, Runner.Trial t) {
            order.add(cell + t.round());
            if (cell.equals("b") && t.round() == 2) throw new StartupFailure("b did not start");
            return new Row(t.invocation(), t.round(), cell, "");
        }

        @Override
        public Row failed(String cell, Runner.Trial t, String why) {
            return new Row(t.invocation(), t.round(), cell, why);
        }

        @Override
        public String summary(Row row) {
            return row.failure().isEmpty() ? "measured" : "FAILED: " + row.failure();
        }
    }

    static Runner.Plan<Row> plan(Path dir, int invocations, Table<Row> table) {
        return new Runner.Plan<>("test", dir, "rows.csv", table, invocations, 2, Map.of(), Map.of(), "runner test", "");
    }

    static final Table<Row> COLUMNS = Table.written(List.of(Column.integer(Invocations.COLUMN, Row::invocation), Column.integer("round", Row::round),
            Column.text("cell", Row::cell), Column.text("failure", Row::failure)));

    @Test
    void roundsInterleaveFailedRunsBecomeRowsAndInvocationsAddUp(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        Letters first = new Letters();
        List<Row> rows = new Runner<>(plan(dir, 1, COLUMNS), first, out).run();
        assertEquals(List.of("a1", "b1", "c1", "a2", "b2", "c2"), first.order, "every cell of a round before the next round");
        assertEquals(6, rows.size());
        assertEquals("b did not start", rows.get(4).failure(), "a run that failed to start is a row that says why, and the plan goes on");

        List<Row> more = new Runner<>(plan(dir, 2, COLUMNS), new Letters(), out).run();
        assertEquals(List.of(2, 3), more.stream().map(Row::invocation).distinct().toList(), "the next invocations follow the CSV's last");
        List<Map<String, String>> csv = Invocations.rows(dir.resolve("rows.csv"));
        assertEquals(18, csv.size(), "every invocation's rows stay in the one CSV");
        assertEquals("b did not start", csv.get(4).get("failure"));
        for (String file : List.of("provenance.json", "provenance-2.json", "provenance-3.json"))
            assertTrue(Files.exists(dir.resolve(file)), "a provenance per invocation: " + file);
        String log = Files.readString(dir.resolve(Runner.SERVERS_LOG));
        assertTrue(log.contains("=== cell b invocation 3 round 2\n"), log);
        String printed = text.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("[5/6] cell b round 2: FAILED: b did not start"), printed);
        assertTrue(printed.contains("ETA"), "progress says what is left: " + printed);
    }

    /** An experiment that writes its page as it finishes: told once per invocation, after its last row, with its rows and provenance. */
    @Test
    void eachInvocationEndsWithItsRowsAndItsProvenanceSaysHowLongItTook(@TempDir Path dir) throws Exception {
        List<String> ended = new ArrayList<>();
        Letters letters = new Letters() {
            @Override
            public void ended(int invocation, List<Row> rows, loomylin.lab.engine.output.Provenance provenance) throws java.io.IOException {
                ended.add(invocation + ": " + rows.stream().map(r -> r.invocation() + r.cell() + r.round()).toList() + " after " + order.size()
                        + " runs, " + (provenance.durationS() >= 0 ? "timed" : "not timed"));
                assertTrue(Files.readString(dir.resolve(Invocations.provenanceFile(invocation))).contains("\"duration_s\""),
                        "the provenance is written with how long the invocation took before the experiment is told");
            }
        };
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        new Runner<>(plan(dir, 2, COLUMNS), letters, quiet).run();
        assertEquals(List.of("1: [1a1, 1b1, 1c1, 1a2, 1b2, 1c2] after 6 runs, timed", "2: [2a1, 2b1, 2c1, 2a2, 2b2, 2c2] after 12 runs, timed"), ended);
    }

    @Test
    void aCsvOfAnotherShapeIsRefusedNotAppendedTo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("rows.csv"), "invocation,something,else\n1,2,3\n");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThrows(UsageError.class, () -> new Runner<>(plan(dir, 1, COLUMNS), new Letters(), quiet).run());
        assertEquals("invocation,something,else\n1,2,3\n", Files.readString(dir.resolve("rows.csv")), "bad input loses nothing");
    }

    @Test
    void aPlanWithoutTheInvocationColumnIsAProgrammingError(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class, () -> plan(dir, 1, Table.written(List.of(Column.text("cell", Row::cell)))));
        assertThrows(IllegalArgumentException.class, () -> plan(dir, 0, COLUMNS));
    }
}
