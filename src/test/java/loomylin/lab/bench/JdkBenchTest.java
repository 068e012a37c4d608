package loomylin.lab.bench;

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
import java.util.stream.Stream;
import loomylin.lab.engine.run.ServerJava;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.json.Json;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdkBenchTest {

    private static Flags flags(String... args) {
        return Flags.parse(Stream.concat(Stream.of("--preset", "jdk"), Stream.of(args)).toArray(String[]::new), BenchFlags.FLAGS, Map.of());
    }

    @Test
    void withoutAnotherJdkItSaysWhatItNeedsInOneLine() {
        UsageError e = assertThrows(UsageError.class, () -> JdkBench.run(flags("--out", "x"), "test", new PrintStream(new ByteArrayOutputStream())));
        assertTrue(e.getMessage().contains("--java PATH") && !e.getMessage().contains("\n"), e.getMessage());
        assertEquals(2.0, JdkBench.median(new double[] {3, 1, 2, Double.NaN}));
    }

    /** The plan both sides run is parsed once, up front: the flags and their variables reach it, and a mistake is refused before any server starts. */
    @Test
    void thePlanIsReadOnceBeforeAnyRun() {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Flags env = Flags.parse(new String[] {"--preset", "jdk", "--out", "x", "--java", java}, BenchFlags.FLAGS,
                Map.of("LOOMYLIN_ENDPOINTS", "computational", "LOOMYLIN_POOLS", "loom"));
        JdkBench.Options o = JdkBench.Options.of(env);
        assertTrue(o.plan().jfr(), "both sides record JFR");
        assertEquals(Path.of("x").toAbsolutePath(), o.dir());
        assertEquals(1, o.plan().runs().stream().map(r -> r.endpoint() + " " + r.pool()).distinct().count(), o.plan().runs().toString());
        for (String[] bad : List.of(new String[] {"--concurrency", "0"}, new String[] {"--endpoints", "nope"}, new String[] {"--repeat", "x"})) {
            Flags flags = flags(Stream.concat(Stream.of("--out", "x", "--java", java), Stream.of(bad)).toArray(String[]::new));
            UsageError e = assertThrows(UsageError.class, () -> JdkBench.Options.of(flags), String.join(" ", bad));
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    /** Smoke size, with the bench's own java as the other JDK: a plan per side, each naming its JDK, and jdk.md with a row per endpoint and pool. */
    @IntegrationTest
    @Test
    void smokeRunWritesEachSideAndTheComparison(@TempDir Path out) throws Exception {
        Tools.assumeOnPath("wrk", "apt-get install wrk");
        String own = ServerJava.bench().command();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        JdkBench.run(flags("--java", own, "--pools", "loom", "--endpoints", "wait-locked?ms=10&lock=synchronized", "--concurrency", "4", "--repeat", "1",
                "--measure", "2", "--warmup", "1s", "--out", out.toString()), "bench --preset jdk (test)", new PrintStream(log, true, StandardCharsets.UTF_8));
        List<Path> sides;
        try (Stream<Path> s = Files.list(out)) {
            sides = s.filter(Files::isDirectory).toList();
        }
        assertEquals(2, sides.size(), "a directory per side: " + sides);
        for (Path side : sides) {
            Map<?, ?> provenance = (Map<?, ?>) Json.parse(Files.readString(side.resolve("provenance.json")));
            assertTrue(String.valueOf(provenance.get("jdk")).contains(System.getProperty("java.runtime.version")), provenance.toString());
            assertTrue(Files.readString(side.resolve("results.csv")).contains("wait-locked?ms=10&lock=synchronized"));
            assertTrue(Files.exists(side.resolve("jfr.csv")), "--jfr recorded the runs");
        }
        String md = Files.readString(out.resolve(JdkBench.REPORT));
        assertTrue(md.contains("| `/wait-locked?ms=10&lock=synchronized` | `loom` |"), md);
        String row = md.lines().filter(l -> l.startsWith("| `/wait-locked")).findFirst().orElseThrow();
        String[] cells = row.split("\\|");
        assertTrue(cells[6].strip().matches("\\d+\\.\\d") && cells[10].strip().matches("\\d+\\.\\d"), "each side's pinned seconds: " + row);
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("bench: done; " + out.resolve(JdkBench.REPORT)), log.toString(StandardCharsets.UTF_8));
    }
}
