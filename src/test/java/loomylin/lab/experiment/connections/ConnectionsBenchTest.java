package loomylin.lab.experiment.connections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import loomylin.lab.engine.PlanFlags;
import loomylin.server.cli.UsageError;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench connections}, smoke-sized: every model at two small levels, real client and backend JVMs. */
class ConnectionsBenchTest {

    @IntegrationTest
    @Test
    void everyModelRunsAndTheFilesAreWritten(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        List<ConnectionsBench.Row> rows = ConnectionsBench.run(new ConnectionsBench.Options(List.of(100, 200), 1, new PlanFlags.Options(dir, 1, 2)),
                "bench connections --connections 100,200 --measure 1 --repeat 2", new PrintStream(progress, true));
        assertEquals(12, rows.size(), progress.toString());
        assertEquals(List.of("nio 100 1", "threads 100 1", "virtual 100 1", "nio 200 1"),
                rows.stream().limit(4).map(r -> r.model() + " " + r.connections() + " " + r.repeat()).toList(),
                "the models interleave within a level, the levels within a repeat");
        for (ConnectionsBench.Row r : rows) {
            assertNull(r.error(), r.toString());
            assertTrue(r.completed() >= r.connections(), "each connection's first request completes: " + r);
            assertEquals(0, r.lost(), r.toString());
            assertTrue(r.peakRssKb() > 0 && r.peakThreads() > 0, "sampled from /proc: " + r);
            if (r.model().equals("threads")) assertTrue(r.peakThreads() >= r.connections(), "a platform thread per connection: " + r);
            else assertTrue(r.peakThreads() < r.connections(), "no OS thread per connection: " + r);
        }
        List<String> csv = Files.readAllLines(dir.resolve("connections.csv"));
        assertEquals(13, csv.size());
        assertTrue(csv.get(0).startsWith("invocation,model,") && csv.get(1).startsWith("1,nio,100,1,"), "the first invocation into a new --out: " + csv);
        assertTrue(Files.readString(dir.resolve("servers.log")).contains("=== threads 200 connections invocation 1 round 2\n"), "each client run headed in the log");
        assertTrue(Files.size(dir.resolve("connections.png")) > 0);
        String md = Files.readString(dir.resolve("connections.md"));
        assertTrue(md.contains("| virtual | 200 | 2 |"), md);
        assertTrue(md.contains("## Provenance") && md.contains("--connections 100,200"), "the report names the command and the commit: " + md);
        String provenance = Files.readString(dir.resolve("provenance.json"));
        assertTrue(provenance.contains("\"duration_s\"") && provenance.contains("\"commit\""), provenance);
    }

    @Test
    void levelsGoToTheMostTheOpenFileLimitAllows() {
        assertEquals(List.of(100, 1_000, 5_000, 10_000, 15_000, 19_000), ConnectionsBench.levels(null, OptionalLong.of(20_000)));
        assertEquals(List.of(100, 1_000, 5_000, 10_000, 15_000, 50_000), ConnectionsBench.levels(null, OptionalLong.of(1_048_576)));
        assertEquals(List.of(100, 1_000, 3_000), ConnectionsBench.levels(null, OptionalLong.of(4_000)));
        assertEquals(List.of(7, 70), ConnectionsBench.levels("7, 70", OptionalLong.of(20_000)));
        UsageError e = assertThrows(UsageError.class, () -> ConnectionsBench.levels("19001", OptionalLong.of(20_000)));
        assertTrue(e.getMessage().contains("from 1 to 19000"), e.getMessage());
    }

    /**
     * connections.csv is written as the committed file spells it, with the invocation column first, which the
     * committed file (written before the preset ran on the Runner) lacks: its header, and its first run's line.
     */
    @Test
    void aRunIsWrittenAsTheCommittedFileSpellsIt() throws java.io.IOException {
        List<String> committed = Files.readAllLines(loomylin.testing.CommittedCsv.named("connections.csv").getFirst()).stream()
                .map(line -> (line.startsWith("model,") ? "invocation," : "1,") + line).toList();
        ConnectionsBench.Row first = new ConnectionsBench.Row(1, "nio", 100, 1, 1000, 98.9, 0.14, 0, 0, 59004, 8945640, 19, null);
        assertEquals(committed.subList(0, 2), List.of(ConnectionsReport.TABLE.header(), ConnectionsReport.TABLE.line(first)));
    }
}
