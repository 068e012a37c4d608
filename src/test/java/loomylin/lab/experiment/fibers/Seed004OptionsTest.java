package loomylin.lab.experiment.fibers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import loomylin.lab.bench.BenchFlags;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;

/** {@code --preset seed004}'s flags read once into {@link FibersExperiments.Options}. */
class Seed004OptionsTest {
    static Flags bench(Map<String, String> env, String... args) {
        return Flags.parse(Stream.concat(Stream.of("--preset", "seed004", "--out", "x", "--hey", "/bin/true"), Stream.of(args)).toArray(String[]::new),
                BenchFlags.FLAGS, env);
    }

    @Test
    void defaultsVariablesAndFlags() {
        FibersExperiments.Options d = FibersExperiments.Options.of(bench(Map.of()));
        assertEquals(List.of(FibersExperiments.POOLS, FibersExperiments.CONCURRENCY, FibersExperiments.DURATION, FibersExperiments.WARMUP),
                List.of(d.pools(), d.concurrency(), d.duration(), d.warmup()));
        FibersExperiments.Options env = FibersExperiments.Options.of(bench(Map.of("LOOMYLIN_CONCURRENCY", "5,6", "LOOMYLIN_DURATION", "9s"), "--warmup", "2s"));
        assertEquals(List.of(List.of(5, 6), "9s", "2s"), List.of(env.concurrency(), env.duration(), env.warmup()));
    }

    @Test
    void mistakesAreOneLineUsageErrors() {
        for (String[] args : List.of(new String[] {"--concurrency", "0"}, new String[] {"--duration", "8 s"}, new String[] {"--warmup", "0s"},
                new String[] {"--pools", "qtp"}, new String[] {"--hey", "/no/hey"})) {
            UsageError e = assertThrows(UsageError.class, () -> FibersExperiments.Options.of(bench(Map.of(), args)), String.join(" ", args));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
