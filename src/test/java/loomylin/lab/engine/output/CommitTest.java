package loomylin.lab.engine.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit through git (an external process, hence tagged): this checkout's, and none outside a checkout. */
@IntegrationTest
class CommitTest {
    @Test
    void theRunningCodeNamesThisCheckoutsCommit() {
        Commit commit = Commit.ofRunningCode();
        assertTrue(commit.hash().matches("[0-9a-f]{40}"), commit.toString());
        assertTrue(commit.root().isPresent());
        assertEquals("target/classes", commit.relative(commit.root().orElseThrow().resolve("target/classes")));
    }

    @Test
    void outsideACheckoutTheCommitIsUnknown(@TempDir Path dir) {
        Commit commit = Commit.of(dir);
        assertEquals("unknown", commit.hash());
        assertTrue(commit.root().isEmpty());
    }

    @Test
    void collectReadsThisMachine(@TempDir Path dir) {
        Provenance p = Provenance.collect("bench", dir, java.util.Map.of(), java.util.Map.of());
        assertTrue(p.host().cores() >= 1);
        assertTrue(p.host().memoryKb() > 0, "MemTotal read");
        assertTrue(p.date().endsWith("Z"), p.date());
        assertEquals(dir.toAbsolutePath().toString(), p.out(), "a temporary directory is outside the checkout");
    }
}
