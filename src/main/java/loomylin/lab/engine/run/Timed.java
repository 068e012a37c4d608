package loomylin.lab.engine.run;

import java.util.List;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;

/**
 * A CSV row that records when its run was made, beside what the run measured: its start, end and the machine's
 * 1-minute load average then, as the columns {@code started}, {@code ended}, {@code load_average}.
 */
public record Timed<R>(R row, RunResult.When when) {

    /** The three columns. */
    public static <R> List<Column<Timed<R>, ?>> columns() {
        return List.of(Column.text("started", t -> t.when.started()), Column.text("ended", t -> t.when.ended()),
                Column.text("load_average", t -> t.when.load1()));
    }

    /** When the run of a row read back was made. */
    public static RunResult.When when(Table.Fields f) {
        List<Column<Timed<Object>, ?>> c = columns();
        return new RunResult.When((String) f.get(c.get(0)), (String) f.get(c.get(1)), (String) f.get(c.get(2)));
    }
}
