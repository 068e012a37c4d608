package loomylin.lab.experiment.crossover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import loomylin.lab.bench.BenchFlags;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;

/** {@code --preset floor}'s flags read once into {@link Floor.Options}: defaults, environment variables, one-line mistakes. */
class FloorOptionsTest {
    static Flags bench(Map<String, String> env, String... args) {
        return Flags.parse(Stream.concat(Stream.of("--preset", "floor", "--out", "x", "--oha", "/bin/true"), Stream.of(args)).toArray(String[]::new),
                BenchFlags.FLAGS, env);
    }

    @Test
    void defaultsVariablesAndFlags() {
        Floor.Options d = Floor.Options.of(bench(Map.of()));
        assertEquals(List.of(Floor.RATE, Floor.REPEAT, Floor.MEASURE_S), List.of(d.rate(), d.rounds(), d.measureS()));
        assertEquals(Floor.Layer.values().length, d.layers().size());
        Floor.Options env = Floor.Options.of(bench(Map.of("LOOMYLIN_RATE", "123", "LOOMYLIN_WARMUP", "3s", "LOOMYLIN_LAYERS", "bare-jetty,bare-javalin")));
        assertEquals(123, env.rate());
        assertEquals(Duration.ofSeconds(3), env.slice());
        assertEquals(List.of(Floor.Layer.JETTY, Floor.Layer.JAVALIN), env.layers());
        assertEquals(7, Floor.Options.of(bench(Map.of("LOOMYLIN_RATE", "123"), "--rate", "7")).rate(), "the flag beats its variable");
        assertNull(Floor.Options.of(Flags.parse(new String[] {"--preset", "floor", "--out", "x", "--rerender"}, BenchFlags.FLAGS, Map.of())).oha().given(),
                "reading the flags looks for no oha: re-rendering needs none");
    }

    @Test
    void mistakesAreOneLineUsageErrors() {
        for (String[] args : List.of(new String[] {"--rate", "0"}, new String[] {"--layers", "jetty,nope"}, new String[] {"--layers", ","},
                new String[] {"--warmup", "0s"}, new String[] {"--repeat", "21"}, new String[] {"--pools", "qtp:0"})) {
            UsageError e = assertThrows(UsageError.class, () -> Floor.Options.of(bench(Map.of(), args)), String.join(" ", args));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        UsageError env = assertThrows(UsageError.class, () -> Floor.Options.of(bench(Map.of("LOOMYLIN_MEASURE", "forever"))));
        assertTrue(env.getMessage().contains("LOOMYLIN_MEASURE"), env.getMessage());
    }
}
