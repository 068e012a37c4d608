package loomylin.lab.experiment.fibers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;

/** {@code bench seed004}'s flags, read by picocli into {@link Seed004Command} and once into {@link FibersExperiments.Options}. */
class Seed004OptionsTest {
    static FibersExperiments.Options options(Map<String, String> env, String... args) {
        Seed004Command command = new Seed004Command();
        CommandLines.parse(command, Stream.concat(Stream.of("--out", "x", "--hey", "/bin/true"), Stream.of(args)).toArray(String[]::new), env);
        return command.options();
    }

    @Test
    void defaultsVariablesAndFlags() {
        FibersExperiments.Options d = options(Map.of());
        assertEquals(List.of(FibersExperiments.POOLS, FibersExperiments.CONCURRENCY, FibersExperiments.DURATION, FibersExperiments.WARMUP, "java", "1g", 20, 1, 1),
                List.of(d.pools(), d.concurrency(), d.duration(), d.warmup(), d.common().twin(), d.common().heap(), d.common().timeoutS(), d.plan().invocations(),
                        d.plan().rounds()));
        FibersExperiments.Options env = options(Map.of("LOOMYLIN_CONCURRENCY", "5,6", "LOOMYLIN_DURATION", "9s", "LOOMYLIN_HEAP", "2G"),
                "--warmup", "2s", "--invocations", "2", "--twin", "kotlin");
        assertEquals(List.of(List.of(5, 6), "9s", "2s", 2, "kotlin", "2g"),
                List.of(env.concurrency(), env.duration(), env.warmup(), env.plan().invocations(), env.common().twin(), env.common().heap()));
    }

    @Test
    void mistakesAreOneLineUsageErrors() {
        for (String[] args : List.of(new String[] {"--concurrency", "0"}, new String[] {"--duration", "8 s"}, new String[] {"--warmup", "0s"},
                new String[] {"--pools", "qtp"}, new String[] {"--hey", "/no/hey"}, new String[] {"--heap", "lots"}, new String[] {"--repeat", "2"})) {
            UsageError e = assertThrows(UsageError.class, () -> options(Map.of(), args), String.join(" ", args));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        assertEquals("--duration must be whole seconds such as 8s, got '500ms'", assertThrows(UsageError.class, () -> options(Map.of(), "--duration", "500ms")).getMessage());
        assertEquals("LOOMYLIN_HEAP must be a heap size such as 512m or 2g, got 'lots'",
                assertThrows(UsageError.class, () -> options(Map.of("LOOMYLIN_HEAP", "lots"))).getMessage());
    }
}
