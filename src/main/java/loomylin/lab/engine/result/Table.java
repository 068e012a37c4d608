package loomylin.lab.engine.result;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import loomylin.server.cli.Csv;

/**
 * A results CSV's schema: its columns in order, each declared once ({@link Column}), and how a row is made from
 * what they read. It writes the header and each row's line, and reads a file back by header name, so that the
 * order of a file's columns does not matter, a column the file lacks reads as its default, and a column the schema
 * does not know (one since dropped) is ignored.
 *
 * @param <R> the row type
 */
public record Table<R>(List<Column<R, ?>> columns, Function<Fields, R> reader) {

    public Table {
        columns = List.copyOf(columns);
        if (columns.stream().map(Column::name).distinct().count() != columns.size())
            throw new IllegalArgumentException("a column is declared twice: " + columns.stream().map(Column::name).toList());
    }

    /** A table that is written and never read back: no report or re-render reads its file again. */
    public static <R> Table<R> written(List<Column<R, ?>> columns) {
        return new Table<>(columns, f -> {
            throw new UnsupportedOperationException("this CSV is written, not read back: " + columns.getFirst().name() + ",...");
        });
    }

    /** The columns' names, in order. */
    public List<String> columnNames() {
        return columns.stream().map(Column::name).toList();
    }

    /** The header line, without its newline. */
    public String header() {
        return String.join(",", columnNames());
    }

    /** {@code row}'s line, without its newline. */
    public String line(R row) {
        return columns.stream().map(c -> c.field(row)).collect(Collectors.joining(","));
    }

    /** The header and every row, each line ending in a newline. */
    public String text(List<R> rows) {
        StringBuilder out = new StringBuilder(header()).append('\n');
        for (R row : rows) out.append(line(row)).append('\n');
        return out.toString();
    }

    /** Every row of {@code text}, a CSV with a header, read by column name. */
    public List<R> parse(String text) {
        return Csv.parse(text).stream().map(f -> reader.apply(new Fields(f))).toList();
    }

    /** Every row of the file. */
    public List<R> read(Path csv) throws IOException {
        return parse(Files.readString(csv, StandardCharsets.UTF_8));
    }

    /** One CSV row's fields by column name, read through the schema's columns. */
    public record Fields(Map<String, String> byName) {
        public <T> T get(Column<?, T> column) {
            return column.parse(byName.get(column.name()));
        }
    }
}
