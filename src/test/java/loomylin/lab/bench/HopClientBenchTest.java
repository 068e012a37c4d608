package loomylin.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --preset hops --hop-client url}, smoke-sized: the servers run the asked client, both hop routes answer,
 * and results.csv holds the backend's CPU per request.
 */
@IntegrationTest
class HopClientBenchTest {

    @Test
    void hopsPresetRunsTheServersOnTheAskedHopClient(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("hey", "apt-get install hey (or brew install hey, go install github.com/rakyll/hey@latest)");
        String[] args = {"--out", out.toString(), "--preset", "hops", "--hop-client", "url", "--concurrency", "5",
                "--requests", "50", "--warmup", "200ms", "--backend-delay", "5", "--repeat", "1", "--invocations", "1"};
        Path dir = Bench.run(BenchFlags.parse(args, Map.of()), "bench " + String.join(" ", args),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(3, csv.size(), String.join("\n", csv)); // header, hops-blocking, hops-async
        int errors = List.of(csv.get(0).split(",")).indexOf("errors");
        int backendCpu = List.of(csv.get(0).split(",")).indexOf("backend_cpu_ms_per_req");
        for (String line : csv.subList(1, csv.size())) {
            assertEquals("0", line.split(",", -1)[errors], "no errors: " + line);
            // three calls per request on the backend: its CPU during the window is read, and is not nothing
            assertTrue(Double.parseDouble(line.split(",", -1)[backendCpu]) > 0, "the backend's CPU per request: " + line);
        }
        String servers = Files.readString(dir.resolve("servers.log"));
        assertTrue(servers.contains("hop client url"), servers);
        assertTrue(!servers.contains("hop client jdk"), servers);
    }
}
