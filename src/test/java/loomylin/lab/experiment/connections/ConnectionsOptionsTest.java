package loomylin.lab.experiment.connections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import loomylin.lab.bench.BenchFlags;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;

/** {@code --preset connections}'s flags read once into {@link ConnectionsBench.Options}. */
class ConnectionsOptionsTest {
    static Flags bench(Map<String, String> env, String... args) {
        String[] head = {"--preset", "connections", "--out", "x"};
        String[] all = java.util.Arrays.copyOf(head, head.length + args.length);
        System.arraycopy(args, 0, all, head.length, args.length);
        return Flags.parse(all, BenchFlags.FLAGS, env);
    }

    @Test
    void defaultsVariablesAndFlags() {
        ConnectionsBench.Options d = ConnectionsBench.Options.of(bench(Map.of(), "--concurrency", "10,20"));
        assertEquals(List.of(List.of(10, 20), ConnectionsBench.DEFAULT_MEASURE_S, ConnectionsBench.DEFAULT_REPEAT), List.of(d.levels(), d.durationS(), d.repeat()));
        ConnectionsBench.Options env = ConnectionsBench.Options.of(bench(Map.of("LOOMYLIN_CONCURRENCY", "30", "LOOMYLIN_MEASURE", "4"), "--repeat", "1"));
        assertEquals(List.of(List.of(30), 4, 1), List.of(env.levels(), env.durationS(), env.repeat()));
    }

    @Test
    void mistakesAreOneLineUsageErrors() {
        for (String[] args : List.of(new String[] {"--concurrency", "0"}, new String[] {"--measure", "0"}, new String[] {"--repeat", "x"})) {
            UsageError e = assertThrows(UsageError.class, () -> ConnectionsBench.Options.of(bench(Map.of(), args)), String.join(" ", args));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
