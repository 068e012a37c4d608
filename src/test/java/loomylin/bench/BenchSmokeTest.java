package loomylin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import loomylin.cli.StartupFailure;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole bench for real: hey from PATH, server JVMs started from this test's class path. Needs hey
 * installed (CI installs it); without it these tests are skipped, saying how to install it. No timing is asserted.
 */
class BenchSmokeTest {
    @TempDir
    Path out;

    private static Path hey() {
        return Tools.assumeOnPath("hey", "apt-get install hey (or brew install hey, go install github.com/rakyll/hey@latest)");
    }

    private static Path run(Path out, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--out";
        all[1] = out.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        hey();
        return Bench.run(BenchFlags.parse(all, Map.of()), "bench " + String.join(" ", all), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @Test
    void smokePresetWritesRowsReportTargetsAndCharts() throws IOException {
        Path dir = run(out, "--preset", "smoke");

        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(String.join(",", RunResult.COLUMNS), csv.get(0));
        assertEquals(1 + 8, csv.size());
        Set<String> runs = new HashSet<>();
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",", -1);
            assertEquals(RunResult.COLUMNS.size(), f.length, line);
            runs.add(f[0] + " " + f[1] + " " + f[2]);
            assertEquals("100", f[3], line); // requests
            assertEquals("0", f[9], line); // errors: every request answered 200
            assertTrue(Double.parseDouble(f[4]) > 0, line); // rps
            assertTrue(Long.parseLong(f[11]) > 0 && Long.parseLong(f[12]) >= Long.parseLong(f[11]), line); // idle <= peak RSS
            assertTrue(Long.parseLong(f[13]) > Long.parseLong(f[12]), line); // address space > resident
            assertTrue(Integer.parseInt(f[14]) > 5, line); // a JVM has more threads than that
            assertTrue(f[15].equals("true") || f[15].equals("false"), line);
            assertEquals("java", f[16], line);
        }
        assertEquals(Set.of("loom wait-blocking?ms=10 5", "qtp:4 wait-blocking?ms=10 5", "loom wait-blocking?ms=10 10",
                "qtp:4 wait-blocking?ms=10 10", "loom computational?iterations=1000 5", "qtp:4 computational?iterations=1000 5",
                "loom computational?iterations=1000 10", "qtp:4 computational?iterations=1000 10"), runs);

        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("## Machine"), report);
        assertTrue(report.contains("## Targets"), report);
        assertTrue(report.contains("## /wait-blocking?ms=10"), report);
        assertTrue(report.contains("## /computational?iterations=1000"), report);
        assertTrue(report.contains("![wait-blocking?ms=10](wait-blocking-ms-10.png)"), report);
        assertEquals(1 + 7, Files.readAllLines(dir.resolve("targets.csv")).size());

        for (String png : List.of("wait-blocking-ms-10.png", "computational-iterations-1000.png")) {
            BufferedImage image = ImageIO.read(dir.resolve(png).toFile());
            assertNotNull(image, png + " is not an image");
            assertEquals(Charts.WIDTH, image.getWidth(), png);
            assertEquals(Charts.HEIGHT, image.getHeight(), png);
        }
        assertEquals(0, ChildProcesses.live(), "every server, backend and hey process has ended");
    }

    @Test
    void aRunThatFailsKeepsTheRunsBeforeIt() throws IOException {
        // A hey that works for the first run (warm-up and measurement), then breaks.
        Path fake = out.resolve("hey");
        Files.writeString(fake, """
                #!/bin/sh
                n=$(cat "$0.count" 2>/dev/null || echo 0)
                echo $((n + 1)) > "$0.count"
                if [ "$n" -ge 2 ]; then echo "broken on purpose" >&2; exit 3; fi
                exec "%s" "$@"
                """.formatted(hey()));
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path dir = out.resolve("results");

        StartupFailure e = assertThrows(StartupFailure.class, () -> run(dir, "--preset", "smoke", "--hey", fake.toString(),
                "--pools", "loom", "--endpoints", "wait-async?ms=1", "--concurrency", "2,3", "--requests", "6"));

        assertTrue(e.getMessage().contains("run 2/2"), e.getMessage());
        assertTrue(e.getMessage().contains("broken on purpose"), e.getMessage());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(2, csv.size(), String.join("\n", csv));
        assertTrue(csv.get(1).startsWith("loom,wait-async?ms=1,2,6,"), csv.get(1));
        assertTrue(Files.readString(dir.resolve("report.md")).contains("**Incomplete:**"));
        assertTrue(Files.exists(dir.resolve("wait-async-ms-1.png")));
        assertEquals(0, ChildProcesses.live(), "the failed run's server has ended too");
    }
}
