package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.run.FixedLoad;
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
import loomylin.lab.bench.BenchFlags;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench --preset floor smoke-sized for real: server JVMs of two layers on one pool, oha open loop, two invocations into one --out. No timing is asserted. */
@IntegrationTest
class FloorTest {

    @Test
    void aTinyFloorMeasuresEachLayerAndInvocationsAddUp(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        String[] args = {"--preset", "floor", "--pools", "loom", "--layers", "bare-jetty,jetty+connector,loomylin", "--rate", "200", "--measure", "1",
                "--warmup", "1s", "--repeat", "1", "--out", out.toString()};
        for (int invocation = 1; invocation <= 2; invocation++)
            Floor.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "floor test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, ChildProcesses.live(), "every server and oha process has ended");

        List<Map<String, String>> rows = Invocations.rows(out.resolve(Floor.CSV));
        assertEquals(6, rows.size(), "three layers in each of two invocations: " + rows);
        assertEquals(List.of("1", "2"), rows.stream().map(r -> r.get(Invocations.COLUMN)).distinct().toList());
        for (Map<String, String> r : rows) {
            assertEquals("", r.get("failure"), r.toString());
            assertTrue(Double.parseDouble(r.get("cpu_ms_per_req")) > 0, "CPU per answer measured: " + r);
            assertTrue(Integer.parseInt(r.get("warmup_slices")) >= FixedLoad.MIN_SLICES, "at least the minimum of warm-up slices: " + r);
            assertTrue(Long.parseLong(r.get("answers")) > 0, r.toString());
        }
        assertTrue(Files.exists(out.resolve("provenance.json")) && Files.exists(out.resolve("provenance-2.json")), "a provenance per invocation");
        String md = Files.readString(out.resolve(Floor.REPORT));
        assertTrue(md.contains("| `loom` | jetty+connector |"), md);
        assertTrue(md.contains("undecided"), "one round per invocation decides no goal: " + md);
    }

    @Test
    void anUnknownPoolOrLayerIsAUsageError() {
        for (String[] args : new String[][] {{"--preset", "floor", "--pools", "qtp:x"}, {"--preset", "floor", "--layers", "tomcat"}}) {
            assertThrows(UsageError.class, () -> Floor.run(Flags.parse(args, BenchFlags.FLAGS, Map.of()), "floor test",
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        }
    }
}
