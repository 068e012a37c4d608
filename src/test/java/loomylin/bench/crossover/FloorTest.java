package loomylin.bench.crossover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import loomylin.bench.BenchFlags;
import loomylin.bench.process.ChildProcesses;
import loomylin.bench.run.RunResult;
import loomylin.cli.Flags;
import loomylin.cli.UsageError;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench --preset floor smoke-sized for real: bare Jetty, bare Javalin and Loomylin server JVMs on each pool, wrk -t1. No timing is asserted. */
@IntegrationTest
class FloorTest {

    @Test
    void aTinyFloorMeasuresBareJettyBareJavalinAndLoomylinOnEachPool(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        String[] args = {"--preset", "floor", "--pools", "loom,qtp:32", "--measure", "1", "--warmup", "1s", "--repeat", "1", "--out", out.toString()};
        Floor.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "floor test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, ChildProcesses.live(), "every server and wrk process has ended");

        List<String> csv = Files.readAllLines(out.resolve(Floor.CSV));
        assertEquals(1 + 6, csv.size(), "a header and the three layers on 2 pools: " + csv);
        int endpoint = 3 + RunResult.COLUMNS.indexOf("endpoint");
        int cpu = 3 + RunResult.COLUMNS.indexOf("cpu_ms_per_req");
        int twin = 3 + RunResult.COLUMNS.indexOf("twin");
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            assertEquals(f[0].equals("loomylin") ? Floor.LOOMYLIN_ENDPOINT : f[0], f[endpoint], row);
            assertEquals(f[0].equals("loomylin") ? "java" : "-", f[twin], "a bare server runs no twin: " + row);
            assertTrue(Double.parseDouble(f[cpu]) > 0, "CPU per request measured: " + row);
        }
        String md = Files.readString(out.resolve(Floor.REPORT));
        assertTrue(md.contains("| `loom` |") && md.contains("| `qtp:32` |"), md);
        assertEquals(3, csv.stream().skip(1).map(r -> r.split(",")[0]).distinct().count(), "bare-jetty, bare-javalin, loomylin: " + csv);
    }

    @Test
    void anUnknownPoolIsAUsageError() {
        String[] args = {"--preset", "floor", "--pools", "qtp:x"};
        assertThrows(UsageError.class, () -> Floor.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "floor test",
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    }
}
