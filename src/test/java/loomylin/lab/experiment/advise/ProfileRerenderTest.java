package loomylin.lab.experiment.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code advise --rerender} on a request profile's directory: the committed example's page is what its CSV and
 * provenance render (so a page written by older code, or edited by hand, fails here until it is rendered again),
 * and a directory that is not advise's is refused in one line.
 */
class ProfileRerenderTest {
    private static final Path EXAMPLE = Path.of("gfx/results/advise");

    private static Path copy(Path from, Path to) throws Exception {
        for (String f : List.of(Advise.CSV, Advise.PAGE, Advise.CHART, "provenance.json")) Files.copy(from.resolve(f), to.resolve(f));
        return to;
    }

    @Test
    void theCommittedExampleIsWhatItsCsvRenders(@TempDir Path dir) throws Exception {
        copy(EXAMPLE, dir);
        ByteArrayOutputStream page = new ByteArrayOutputStream();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        ProfileRerender.rerender(dir, new PrintStream(page, true, StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8));
        String rendered = Files.readString(dir.resolve(Advise.PAGE));
        assertEquals(Files.readString(EXAMPLE.resolve(Advise.PAGE)), rendered,
                "gfx/results/advise/advise.md is not what its advise.csv renders: java -jar target/loomylin.jar advise --rerender --out gfx/results/advise");
        assertEquals(rendered, page.toString(StandardCharsets.UTF_8));
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("written from 48 runs"), progress.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aDirectoryOfAnotherCommandOrWithoutItsFilesIsOneLine(@TempDir Path dir) throws Exception {
        UsageError none = assertThrows(UsageError.class, () -> ProfileRerender.rerender(dir, System.out, System.err));
        assertTrue(none.getMessage().contains("provenance.json cannot be read"), none.getMessage());
        copy(EXAMPLE, dir);
        Path prov = dir.resolve("provenance.json");
        Files.writeString(prov, Files.readString(prov).replace("loomylin.jar advise --cpu-ms", "loomylin.jar bench --cpu-ms"));
        UsageError other = assertThrows(UsageError.class, () -> ProfileRerender.rerender(dir, System.out, System.err));
        assertTrue(other.getMessage().contains("holds no advise profile's results"), other.getMessage());
        assertEquals(1, other.getMessage().lines().count());
    }
}
