package loomylin.bench.crossover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import loomylin.bench.BenchFlags;
import loomylin.bench.process.ChildProcesses;
import loomylin.cli.Flags;
import loomylin.cli.UsageError;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench --preset crossover smoke-sized for real (wrk, server JVMs), and its grid flags' mistakes. No timing is asserted. */
@IntegrationTest
class CrossoverTest {

    private static Flags flags(String... args) {
        return Flags.parse(args, BenchFlags.FLAGS, Map.of());
    }

    @Test
    void aTinyGridWritesARowPerRunTheTablesTheSentenceAndTheHeatMaps(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        Crossover.run(flags("--preset", "crossover", "--waits", "0,2", "--cpus", "0", "--concurrency", "10", "--measure", "1", "--warmup", "1s",
                "--out", out.toString()), "crossover test", new PrintStream(stdout, true, StandardCharsets.UTF_8));
        assertEquals(0, ChildProcesses.live(), "every server and wrk process has ended");

        List<String> csv = Files.readAllLines(out.resolve(Crossover.CSV));
        assertEquals(1 + 2 * 5, csv.size(), "a header and 5 pools in each of 2 cells: " + csv);
        int failure = CrossoverReport.CSV_COLUMNS.indexOf("failure");
        for (String row : csv.subList(1, csv.size())) assertEquals("", row.split(",", -1)[failure], "every run finished: " + row);
        String md = Files.readString(out.resolve(Crossover.REPORT));
        assertTrue(md.contains("## loom vs the best platform pool: throughput") && md.contains("## loom vs async (/mixed-async): CPU per request"), md);
        assertTrue(md.contains("Crossover: virtual threads (loom) matched") || md.contains("at no wait measured"), md);
        assertTrue(stdout.toString(StandardCharsets.UTF_8).contains("Crossover: "), "the sentence is printed: " + stdout);
        for (CrossoverReport.Versus v : CrossoverReport.Versus.values()) {
            BufferedImage image = ImageIO.read(out.resolve(v.fileName()).toFile());
            assertEquals(3 * 600, image.getWidth(), v.fileName());
        }
        assertTrue(Files.readString(out.resolve("provenance.json")).contains("\"command\" : \"crossover test\""));
    }

    @Test
    void aWaitThatIsNotWholeMillisecondsIsAUsageError() {
        UsageError e = assertThrows(UsageError.class, () -> Crossover.settings(flags("--preset", "crossover", "--waits", "0,1.5")));
        assertTrue(e.getMessage().startsWith("--waits takes whole milliseconds"), e.getMessage());
    }

    @Test
    void moreCallsThanMixedTakesIsAUsageError() {
        UsageError e = assertThrows(UsageError.class, () -> Crossover.settings(flags("--preset", "crossover", "--calls", "101")));
        assertTrue(e.getMessage().startsWith("--calls must be a whole number from 0 to 100"), e.getMessage());
    }

    @Test
    void aNegativeCpuIsAUsageError() {
        UsageError e = assertThrows(UsageError.class, () -> Crossover.settings(flags("--preset", "crossover", "--cpus", "-1")));
        assertTrue(e.getMessage().startsWith("--cpus takes numbers from 0 to 100"), e.getMessage());
    }
}
