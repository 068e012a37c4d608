package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import loomylin.lab.bench.BenchFlags;
import loomylin.lab.engine.load.Client;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** What every self-running preset reads alike: defaults, environment variables, the flag over its variable, one-line usage errors. */
class PresetOptionsTest {
    static Flags bench(Map<String, String> env, String... args) {
        return Flags.parse(Stream.concat(Stream.of("--out", "some/dir"), Stream.of(args)).toArray(String[]::new), BenchFlags.FLAGS, env);
    }

    @Test
    void defaultsComeFromThePresetAndVariablesAndFlagsReplaceThem() {
        PresetOptions d = PresetOptions.of(bench(Map.of()), "1g");
        assertEquals(new PresetOptions("java", "1g", 20, Path.of("some/dir").toAbsolutePath()), d);
        PresetOptions env = PresetOptions.of(bench(Map.of("LOOMYLIN_TWIN", "kotlin", "LOOMYLIN_HEAP", "2G", "LOOMYLIN_TIMEOUT", "7")), "1g");
        assertEquals(List.of("kotlin", "2g", 7), List.of(env.twin(), env.heap(), env.timeoutS()));
        PresetOptions flag = PresetOptions.of(bench(Map.of("LOOMYLIN_TIMEOUT", "7"), "--timeout", "9"), "1g");
        assertEquals(9, flag.timeoutS(), "the flag beats its variable");
    }

    @Test
    void poolsAreParsedInOrderEachOnce() {
        assertEquals(List.of(PoolKind.parse("loom"), PoolKind.parse("qtp:8")), PresetOptions.pools(bench(Map.of(), "--pools", "loom,qtp:8,loom"), List.of()));
        assertEquals(List.of("qtp:200"), PresetOptions.poolLabels(bench(Map.of("LOOMYLIN_POOLS", "qtp:200")), List.of("loom")));
        assertEquals(List.of("loom"), PresetOptions.poolLabels(bench(Map.of()), List.of("loom")));
        assertEquals(List.of(PoolKind.parse("qtp:8-200"), PoolKind.parse("qtp:200")), PresetOptions.pools(bench(Map.of(), "--pools", "qtp:8-200,qtp:200"), List.of()),
                "Jetty's new QueuedThreadPool() and a pool of 200 sized up front are two pools");
        assertEquals(List.of("qtp:8-200", "loom"), PresetOptions.poolLabels(bench(Map.of(), "--pools", "qtp:8-200,loom"), List.of()));
    }

    @Test
    void mistakesAreOneLineUsageErrorsNamingTheFlagOrItsVariable() {
        List<Runnable> mistakes = List.of(
                () -> PresetOptions.of(bench(Map.of(), "--timeout", "0"), "1g"),
                () -> PresetOptions.of(bench(Map.of("LOOMYLIN_HEAP", "lots")), "1g"),
                () -> PresetOptions.of(bench(Map.of(), "--twin", "scala"), "1g"),
                () -> PresetOptions.pools(bench(Map.of(), "--pools", "qtp:x"), List.of()),
                () -> PresetOptions.pools(bench(Map.of(), "--pools", "loom,qtp:9-8"), List.of()),
                () -> PresetOptions.poolLabels(bench(Map.of(), "--pools", "qtp:0-5"), List.of("loom")),
                () -> PresetOptions.poolLabels(bench(Map.of(), "--pools", ","), List.of("loom")),
                () -> PresetOptions.client(bench(Map.of(), "--oha", "/no/such/oha"), Client.OHA));
        for (Runnable m : mistakes) {
            UsageError e = assertThrows(UsageError.class, m::run);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        UsageError heap = assertThrows(UsageError.class, () -> PresetOptions.of(bench(Map.of("LOOMYLIN_HEAP", "lots")), "1g"));
        assertTrue(heap.getMessage().contains("LOOMYLIN_HEAP"), "an environment variable's mistake names the variable: " + heap.getMessage());
    }
}
