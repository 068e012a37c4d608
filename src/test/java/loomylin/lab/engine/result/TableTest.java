package loomylin.lab.engine.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.experiment.crossover.Crossover;
import loomylin.lab.experiment.crossover.Floor;
import loomylin.testing.CommittedCsv;
import org.junit.jupiter.api.Test;

/**
 * A schema declared once writes its header and lines and reads a file back by column name: in any order, a column
 * the file lacks as its default, a column the schema does not know ignored; and every committed results CSV of the
 * engine's schemas written back gives the same bytes.
 */
class TableTest {
    record Point(String name, int x, double y, Boolean seen) {
    }

    static final Column<Point, String> NAME = Column.quoted("name", Point::name);
    static final Column<Point, Integer> X = Column.<Point>integer("x", Point::x).orElse(-1);
    static final Column<Point, Double> Y = Column.fixed("y", 2, Point::y);
    static final Column<Point, Boolean> SEEN = Column.maybe("seen", Point::seen);
    static final Table<Point> POINTS = new Table<>(List.of(NAME, X, Y, SEEN), f -> new Point(f.get(NAME), f.get(X), f.get(Y), f.get(SEEN)));

    @Test
    void writesHeaderAndLinesAsTheCommittedFilesSpellThem() {
        assertEquals("name,x,y,seen\n\"a, b\",3,0.50,true\n,0,,\n",
                POINTS.text(List.of(new Point("a, b", 3, 0.5, true), new Point("", 0, Double.NaN, null))));
    }

    @Test
    void readsByNameInAnyOrderWithDefaultsForMissingColumnsAndIgnoresUnknownOnes() {
        assertEquals(List.of(new Point("a, b", -1, 1.25, null), new Point("", -1, Double.NaN, null)),
                POINTS.parse("dropped,y,name\nold,1.25,\"a, b\"\nold,NaN,\n"));
    }

    @Test
    void aColumnDeclaredTwiceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Table<>(List.of(NAME, NAME), f -> null));
    }

    @Test
    void committedResultsRoundTrip() {
        // Files of today's schema must give their bytes back; a column added since (jit_cpu_s, gc_cpu_s) leaves every committed file older, read field by field.
        assertEquals(false, CommittedCsv.named("results.csv").isEmpty(), "no committed results.csv to read back");
        CommittedCsv.assertRoundTrips(RunResult.TABLE, "results.csv");
        CommittedCsv.assertRoundTrips(Crossover.Row.TABLE, "crossover.csv");
        CommittedCsv.assertRoundTrips(Floor.Row.TABLE, "floor.csv");
    }
}
