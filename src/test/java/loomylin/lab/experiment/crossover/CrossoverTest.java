package loomylin.lab.experiment.crossover;

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

/** bench --preset crossover smoke-sized for real (oha, server JVMs, the backend), twice into one --out, and its flags' mistakes. No timing is asserted. */
@IntegrationTest
class CrossoverTest {

    private static Flags flags(String... args) {
        return Flags.parse(args, BenchFlags.FLAGS, Map.of());
    }

    @Test
    void aTinyCrossoverSweepsOnceComparesTwiceAndAddsUpInvocations(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        String[] args = {"--preset", "crossover", "--cells", "call2", "--rate", "100", "--measure", "1", "--warmup", "1s", "--repeat", "1",
                "--out", out.toString()};
        for (int invocation = 1; invocation <= 2; invocation++)
            Crossover.run(flags(args), "crossover test", new PrintStream(stdout, true, StandardCharsets.UTF_8));
        assertEquals(0, ChildProcesses.live(), "every server, backend and oha process has ended");

        List<Map<String, String>> rows = Invocations.rows(out.resolve(Crossover.CSV));
        long sweep = rows.stream().filter(r -> r.get("phase").equals("sweep")).count();
        assertEquals(Grid.sweep(Grid.Cell.parse("call2"), 100, Runtime.getRuntime().availableProcessors()).size(), sweep,
                "one sweep, in the first invocation only: " + rows);
        assertTrue(rows.stream().filter(r -> r.get("phase").equals("sweep")).allMatch(r -> r.get(Invocations.COLUMN).equals("1")), rows.toString());
        for (String invocation : List.of("1", "2")) {
            List<Map<String, String>> compare = rows.stream().filter(r -> r.get("phase").equals("compare") && r.get(Invocations.COLUMN).equals(invocation)).toList();
            assertTrue(compare.stream().anyMatch(r -> r.get("pool").equals("loom")) && compare.stream().anyMatch(r -> r.get("pool").equals("qtp:200")),
                    "loom and Jetty's default pool in invocation " + invocation + ": " + compare);
        }
        for (Map<String, String> r : rows) {
            assertEquals("", r.get("failure"), r.toString());
            assertEquals("call", r.get("wait"), r.toString());
            assertTrue(Double.parseDouble(r.get("cpu_ms_per_req")) > 0 && Long.parseLong(r.get("answers")) > 0, "measured: " + r);
        }
        String md = Files.readString(out.resolve(Crossover.REPORT));
        assertTrue(md.contains("## The sweep") && md.contains("## The noise line") && md.contains("| call2 | `loom` | best"), md);
        assertTrue(md.contains("undecided"), "one run per pool and invocation decides nothing: " + md);
        assertTrue(stdout.toString(StandardCharsets.UTF_8).contains("Crossover: "), "the sentence is printed: " + stdout);
        assertTrue(Files.exists(out.resolve("provenance.json")) && Files.exists(out.resolve("provenance-2.json")), "a provenance per invocation");
    }

    @Test
    void aCellItCannotReadIsAUsageError() {
        for (String cell : List.of("sleep1.5", "wait5", "sleep5+call5", "cpu-1", "cpu1+")) {
            UsageError e = assertThrows(UsageError.class, () -> Crossover.Settings.of(flags("--preset", "crossover", "--cells", "cpu1," + cell)), cell);
            assertTrue(e.getMessage().startsWith("a cell is sleepMS, callMS, cpuMS"), e.getMessage());
        }
    }

    @Test
    void aShareOutsideTheMachineIsAUsageError() {
        for (String share : List.of("0", "1.5", "half")) {
            UsageError e = assertThrows(UsageError.class, () -> Crossover.Settings.of(flags("--preset", "crossover", "--share", share)));
            assertTrue(e.getMessage().startsWith("--share takes a share"), e.getMessage());
        }
    }
}
