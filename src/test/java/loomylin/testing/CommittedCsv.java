package loomylin.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.server.cli.Csv;

/**
 * The committed results keep reading: every {@code gfx/results/**}/NAME read through its {@link Table} and written
 * back gives the same bytes, or, for a file written before some of today's columns, the same field in every column
 * it has (a column since dropped is not compared, since the schema ignores it).
 */
public final class CommittedCsv {
    private CommittedCsv() {
    }

    /** The committed files named {@code name}, in path order; at least one. */
    public static List<Path> named(String name) {
        try (Stream<Path> files = Files.walk(Path.of("gfx", "results"))) {
            List<Path> found = files.filter(f -> f.getFileName().toString().equals(name)).sorted().toList();
            assertFalse(found.isEmpty(), "no gfx/results/**/" + name);
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Asserts that every committed NAME round-trips through {@code table}; returns how many were today's schema. A
     * file of today's schema gives its bytes back but for a computed column's last digit (recomputed from the file's
     * rounded figures, {@link Column#computed()}); an older file gives back every field of every column it has.
     */
    public static <R> int assertRoundTrips(Table<R> table, String name) {
        int current = 0;
        for (Path file : named(name)) {
            String text = read(file);
            String again = table.text(table.parse(text));
            boolean today = text.startsWith(table.header() + "\n");
            if (today) current++;
            if (today && text.equals(again)) continue;
            List<Map<String, String>> before = Csv.parse(text);
            List<Map<String, String>> after = Csv.parse(again);
            assertEquals(before.size(), after.size(), file + ": rows");
            List<String> lines = text.lines().toList();
            List<String> linesAgain = again.lines().toList();
            for (int i = 0; i < before.size(); i++) {
                List<String> differ = new ArrayList<>();
                for (Column<R, ?> c : table.columns()) {
                    String was = before.get(i).get(c.name());
                    String is = after.get(i).get(c.name());
                    if (was != null && !was.equals(is) && !(c.derived() && lastDigit(was, is))) differ.add(c.name() + ": " + was + " -> " + is);
                }
                assertEquals(List.of(), differ, file + " row " + (i + 1) + " written back");
                if (today) assertEquals(lines.get(i + 1).length(), linesAgain.get(i + 1).length(), file + " row " + (i + 1) + " spelled otherwise");
            }
        }
        return current;
    }

    /** Two numbers with as many decimals that differ by at most one in the last. */
    private static boolean lastDigit(String was, String is) {
        try {
            int decimals = was.length() - was.indexOf('.') - 1;
            return was.contains(".") && is.length() == was.length()
                    && Math.abs(Double.parseDouble(was) - Double.parseDouble(is)) <= 1.000001 * Math.pow(10, -decimals);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
