package loomylin.lab.engine.result;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * One column of a results CSV, declared once: its name, how a row writes its field, and how the field reads back.
 * A field left empty, or a column absent from an older file, reads as {@code missing}: that is how files written
 * before a column existed are read, with no migration of their own. A column the row computes is written, never
 * read ({@link #computed()}).
 *
 * @param <R> the row type
 * @param <T> the column's value
 */
public record Column<R, T>(String name, Function<? super R, ? extends T> value, Function<? super T, String> write,
                           Function<String, ? extends T> read, T missing) {

    /** The field {@code row} writes under this column; "" where it has no value (null). */
    public String field(R row) {
        T v = value.apply(row);
        return v == null ? "" : write.apply(v);
    }

    /** The value of {@code field} as read back; {@code missing} for an empty or absent one, or for a derived column. */
    public T parse(String field) {
        return field == null || field.isEmpty() || derived() ? missing : read.apply(field);
    }

    /**
     * The same column, written from what the row computes (CPU per request, a mark) and never read back: a row read
     * from a file computes it again, from the file's rounded figures, so its last digit may differ from the file's.
     */
    public Column<R, T> computed() {
        return new Column<>(name, value, write, null, missing);
    }

    /** Whether the column is {@link #computed()}. */
    public boolean derived() {
        return read == null;
    }

    /** The same column, reading as {@code value} where the field is empty or absent. */
    public Column<R, T> orElse(T value) {
        return new Column<>(name, this.value, write, read, value);
    }

    /** The same column on a row that holds this one's row as {@code part} (a window inside a crossover's row); "" where the part is null. */
    public <S> Column<S, T> of(Function<? super S, ? extends R> part) {
        return new Column<>(name, s -> {
            R p = part.apply(s);
            return p == null ? null : value.apply(p);
        }, write, read, missing);
    }

    /** Each of {@code columns} on a row that holds theirs as {@code part}. */
    public static <S, P> List<Column<S, ?>> of(List<Column<P, ?>> columns, Function<? super S, ? extends P> part) {
        return columns.stream().<Column<S, ?>>map(c -> c.of(part)).toList();
    }

    /** Text as it is; "" when missing. */
    public static <R> Column<R, String> text(String name, Function<? super R, String> value) {
        return new Column<>(name, value, s -> s, s -> s, "");
    }

    /** Text that may hold commas, in double quotes (a quote inside becomes '); "" when empty. */
    public static <R> Column<R, String> quoted(String name, Function<? super R, String> value) {
        return new Column<>(name, value, s -> s.isEmpty() ? "" : "\"" + s.replace("\"", "'") + "\"", s -> s, "");
    }

    /** A whole number, always written; 0 when missing. */
    public static <R> Column<R, Integer> integer(String name, ToIntFunction<? super R> value) {
        return new Column<>(name, value::applyAsInt, i -> Integer.toString(i), Integer::parseInt, 0);
    }

    /** A long, always written; 0 when missing. */
    public static <R> Column<R, Long> whole(String name, ToLongFunction<? super R> value) {
        return new Column<>(name, value::applyAsLong, l -> Long.toString(l), Long::parseLong, 0L);
    }

    /** A count that is negative when unknown: written "" then, and read back as -1. */
    public static <R> Column<R, Long> count(String name, ToLongFunction<? super R> value) {
        return new Column<>(name, value::applyAsLong, l -> l < 0 ? "" : Long.toString(l), Long::parseLong, -1L);
    }

    /** A number with {@code decimals} places, '.' whatever the locale; "" for NaN or infinity, which read back as NaN. */
    public static <R> Column<R, Double> fixed(String name, int decimals, ToDoubleFunction<? super R> value) {
        return new Column<>(name, value::applyAsDouble, d -> fixed(d, decimals),
                s -> s.equals("NaN") ? Double.NaN : Double.parseDouble(s), Double.NaN);
    }

    /** An instant as ISO-8601 ({@link java.time.Instant#toString}); null when missing. */
    public static <R> Column<R, java.time.Instant> instant(String name, Function<? super R, java.time.Instant> value) {
        return new Column<>(name, value, java.time.Instant::toString, java.time.Instant::parse, null);
    }

    /** A pool kind as {@code --pool} spells it; null when missing. */
    public static <R> Column<R, loomylin.server.jetty.PoolKind> pool(String name, Function<? super R, loomylin.server.jetty.PoolKind> value) {
        return new Column<>(name, value, loomylin.server.jetty.PoolKind::toString, loomylin.server.jetty.PoolKind::parse, null);
    }

    /** true or false; false when missing. */
    public static <R> Column<R, Boolean> flag(String name, Predicate<? super R> value) {
        return new Column<>(name, value::test, b -> Boolean.toString(b), Boolean::parseBoolean, false);
    }

    /** true, false, or "" for not known (null). */
    public static <R> Column<R, Boolean> maybe(String name, Function<? super R, Boolean> value) {
        return new Column<>(name, value, b -> b.toString(), Boolean::parseBoolean, null);
    }

    /** {@code value} with {@code decimals} places, '.' whatever the locale; "" for NaN or infinity. */
    public static String fixed(double value, int decimals) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
