package loomylin.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code csv FILE [COLUMN...]}: a script's CSV as a table, the columns asked for, every row, its file named. */
class CsvTableTest {
    @Test
    void rendersTheColumnsAskedForInTheirOrder(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("gfx/results/x"));
        Files.writeString(root.resolve("gfx/results/x/x.csv"), "pool,rps,note\nloom,12.5,\"a, b | c\"\nqtp:32,9,\n");
        Page page = new Page(Path.of("docs/page.md"), new ResultFiles(root));
        assertEquals("| rps | pool |\n|---|---|\n| 12.5 | loom |\n| 9 | qtp:32 |\n\nFrom [gfx/results/x/x.csv](../gfx/results/x/x.csv).",
                new CsvTable().render(page, List.of("gfx/results/x/x.csv", "rps", "pool")));
        String all = new CsvTable().render(page, List.of("gfx/results/x/x.csv"));
        assertTrue(all.startsWith("| pool | rps | note |\n|---|---|---|\n| loom | 12.5 | a, b \\| c |\n| qtp:32 | 9 |  |"), all);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CsvTable().render(page, List.of("gfx/results/x/x.csv", "p99")));
        assertTrue(e.getMessage().contains("has no column 'p99'"), e.getMessage());
        assertThrows(ResultFiles.MissingResult.class, () -> new CsvTable().render(page, List.of("gfx/results/x/none.csv")));
    }
}
