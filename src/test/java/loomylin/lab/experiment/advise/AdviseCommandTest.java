package loomylin.lab.experiment.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.lab.engine.run.RunResult;
import loomylin.server.cli.Flags;
import loomylin.server.json.Json;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** advise for real, smoke-sized: one tiny run against real server JVMs with oha, and each refusal through the jar's entry point. No timing is asserted. */
@IntegrationTest
class AdviseCommandTest {

    @Test
    void aTinyRunPrintsThePageAndWritesItsCsvChartAndProvenance(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        String[] args = {"--cpu-ms", "0.2", "--wait-ms", "5", "--rate", "20", "--threads", "10", "--window", "1s", "--warmup", "1s", "--runs", "1", "--invocations", "2",
                "--out", out.toString()};
        ByteArrayOutputStream page = new ByteArrayOutputStream();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Advise.run(Flags.parse(args, Advise.FLAGS, Map.of()), "advise test", new PrintStream(page, true, StandardCharsets.UTF_8),
                new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertEquals(0, ChildProcesses.live(), "every server and oha process has ended");

        String text = page.toString(StandardCharsets.UTF_8);
        assertEquals(Files.readString(out.resolve(Advise.PAGE)), text, "the page printed is the page written");
        for (String section : List.of("## Verdict", "## Per pool", "## Knees", "## Caveats for this profile", "## What limited the measurement"))
            assertTrue(text.contains(section), section + " in:\n" + text);
        for (String pool : List.of("`qtp:10`", "`loom`", "`" + loomylin.lab.engine.run.Shapes.PREFERRED + "`"))
            assertTrue(text.contains("| " + pool + " | 20 |") && text.contains("| " + pool + " | 40 |"), pool + " at 1x and 2x in:\n" + text);
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("[18/18]"), "progress for every run: " + progress);
        assertTrue(text.contains("2 run(s) per pool and rate from 2 invocation(s)"), text);

        List<String> csv = Files.readAllLines(out.resolve(Advise.CSV));
        assertEquals(1 + 18, csv.size(), "a header and a row per pool, rate and invocation: " + csv);
        int invocation = List.of(csv.getFirst().split(",")).indexOf("invocation");
        assertEquals(List.of("1", "2"), csv.subList(1, csv.size()).stream().map(row -> row.split(",", -1)[invocation]).distinct().toList(), "both invocations' rows");
        int started = List.of(csv.getFirst().split(",")).indexOf("started");
        for (String row : csv.subList(1, csv.size())) assertFalse(row.split(",", -1)[started].isEmpty(), "every run records its start: " + row);
        int errors = List.of(csv.getFirst().split(",")).indexOf("errors");
        for (String row : csv.subList(1, csv.size())) assertEquals("0", row.split(",", -1)[errors], "no errors at these tiny rates: " + row);

        BufferedImage chart = ImageIO.read(out.resolve(Advise.CHART).toFile());
        assertEquals(loomylin.lab.engine.output.Charts.WIDTH, chart.getWidth());
        Map<?, ?> provenance = (Map<?, ?>) Json.parse(Files.readString(out.resolve("provenance.json")));
        assertEquals("advise test", provenance.get("command"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--cpu-ms -1 --wait-ms 40 --rate 300 --threads 200 | --cpu-ms must be a number of milliseconds from 0",
            "--cpu-ms 2 --wait-ms 40 --rate 300 --threads 200 --runs 0 | --runs must be a whole number from 1 to 10",
            "--cpu-ms 2 --wait-ms 40 --rate 300 --threads 1 | --threads must be from 3",
            "--cpu-ms 2 --wait-ms 40 --rate 0 --threads 200 | --rate must be requests per second from 1",
            "--cpu-ms 2 --wait-ms 40 --rate 300 | advise needs --threads",
            "--cpu-ms 2 --wait-ms forty --rate 300 --threads 200 | --wait-ms must be a whole number, got 'forty'",
            "--cpu-ms 2 --wait-ms 40 --rate 300 --threads 200 --body-bytes -5 | --body-bytes must be from 0"})
    void anImpossibleProfileIsOneLineAndExitStatus2(String args, String message) throws Exception {
        String[] command = ("advise " + args.trim()).split("\\s+");
        try (ChildJvm c = ChildJvm.main(command).start()) {
            assertEquals(2, c.exit(Duration.ofSeconds(30)), c.output());
            String output = c.output().strip();
            assertTrue(output.startsWith("loomylin: ") && output.contains(message), output);
            assertEquals(1, output.lines().count(), "one line, no stack trace: " + output);
        }
    }
}
