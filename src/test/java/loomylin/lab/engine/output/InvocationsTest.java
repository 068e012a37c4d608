package loomylin.lab.engine.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Invocations that add up: the next number follows the CSV's largest; a CSV of another shape is refused in one line. */
class InvocationsTest {
    private static final String HEADER = "invocation,repeat,pool,goodput";

    @Test
    void theNextInvocationFollowsTheLargestInTheCsv(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("x.csv");
        assertEquals(1, Invocations.next(csv, HEADER), "no CSV yet");
        assertEquals(HEADER + "\n", Files.readString(csv), "created with its header");
        Files.writeString(csv, "1,1,loom,3.5\n1,2,loom,3.6\n2,1,\"qtp:200\",4\n", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(3, Invocations.next(csv, HEADER));
        assertEquals(3, Invocations.rows(csv).size());
        assertEquals("provenance.json", Invocations.provenanceFile(1));
        assertEquals("provenance-3.json", Invocations.provenanceFile(3));
    }

    @Test
    void aCsvOfAnotherShapeIsRefused(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("x.csv");
        Files.writeString(csv, "repeat,pool,goodput\n1,loom,3\n");
        UsageError e = assertThrows(UsageError.class, () -> Invocations.next(csv, HEADER));
        assertTrue(e.getMessage().contains("another shape") && !e.getMessage().contains("\n"), e.getMessage());
    }
}
