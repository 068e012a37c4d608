package loomylin.lab.experiment.connections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;

/** {@code bench connections}' flags, read by picocli into {@link ConnectionsCommand} and once into {@link ConnectionsBench.Options}. */
class ConnectionsOptionsTest {
    static ConnectionsBench.Options options(Map<String, String> env, String... args) {
        ConnectionsCommand command = new ConnectionsCommand();
        CommandLines.parse(command, Stream.concat(Stream.of("--out", "x"), Stream.of(args)).toArray(String[]::new), env);
        return command.options();
    }

    @Test
    void defaultsVariablesAndFlags() {
        ConnectionsBench.Options d = options(Map.of(), "--connections", "10,20");
        assertEquals(List.of(List.of(10, 20), ConnectionsBench.DEFAULT_MEASURE_S, ConnectionsBench.DEFAULT_REPEAT, 1, Path.of("x").toAbsolutePath()),
                List.of(d.levels(), d.durationS(), d.plan().rounds(), d.plan().invocations(), d.plan().out()));
        ConnectionsBench.Options env = options(Map.of("LOOMYLIN_CONNECTIONS", "30", "LOOMYLIN_MEASURE", "4", "LOOMYLIN_INVOCATIONS", "2"), "--repeat", "1");
        assertEquals(List.of(List.of(30), 4, 1, 2), List.of(env.levels(), env.durationS(), env.plan().rounds(), env.plan().invocations()));
    }

    @Test
    void mistakesAreOneLineUsageErrors() {
        for (String[] args : List.of(new String[] {"--connections", "0"}, new String[] {"--measure", "0"}, new String[] {"--repeat", "x"},
                new String[] {"--invocations", "6"}, new String[] {"--java", "/no/java"}, new String[] {"--twin", "java"})) {
            UsageError e = assertThrows(UsageError.class, () -> options(Map.of(), args), String.join(" ", args));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        assertEquals("LOOMYLIN_MEASURE must be a whole number from 1 to 3600, got 'ten'",
                assertThrows(UsageError.class, () -> options(Map.of("LOOMYLIN_MEASURE", "ten"))).getMessage());
    }
}
