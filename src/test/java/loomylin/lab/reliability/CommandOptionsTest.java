package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;

/** The soak's and slow-clients' flags read once into their options: defaults, their own environment variables, one-line mistakes. */
class CommandOptionsTest {

    @Test
    void soakDefaultsVariablesAndFlags() {
        Soak.Options d = Soak.Options.of(Flags.parse(new String[0], Soak.FLAGS, Map.of()));
        assertEquals(List.of(7000, 7001, 7002), d.ports());
        assertEquals(List.of(600, 4, 10, 120), List.of(d.seconds(), d.clientsPerPort(), d.thinkMs(), d.warmupSeconds()), "warm-up: a quarter of 600 s, at most 120");
        assertNull(d.csv());
        Soak.Options env = Soak.Options.of(Flags.parse(new String[] {"--clients", "2"}, Soak.FLAGS,
                Map.of("SOAK_PORTS", "8000", "SOAK_SECONDS", "20", "SOAK_CLIENTS", "9", "SOAK_RSS_TOLERANCE", "0.5")));
        assertEquals(List.of(List.of(8000), 20, 2, 10), List.of(env.ports(), env.seconds(), env.clientsPerPort(), env.warmupSeconds()),
                "the flag beats its variable; the warm-up is at least 10 s");
        assertEquals(0.5, env.rssTolerance());
    }

    @Test
    void slowClientsDefaultsVariablesAndFlags() {
        SlowClients.Options d = SlowClients.Options.of(Flags.parse(new String[0], SlowClients.FLAGS, Map.of()));
        assertEquals(new SlowClients.Options(7000, 2500, 1000, 20, 4, 10000, null), d);
        SlowClients.Options env = SlowClients.Options.of(Flags.parse(new String[] {"--normal", "3"}, SlowClients.FLAGS,
                Map.of("SLOW_CONNECTIONS", "10", "SLOW_NORMAL", "8", "SLOW_CSV", "out.csv")));
        assertEquals(new SlowClients.Options(7000, 10, 1000, 20, 3, 10000, Path.of("out.csv")), env);
    }

    @Test
    void mistakesAreOneLineUsageErrorsNamingTheFlagOrVariable() {
        List<Runnable> mistakes = List.of(
                () -> Soak.Options.of(Flags.parse(new String[] {"--ports", "7000,70000"}, Soak.FLAGS, Map.of())),
                () -> Soak.Options.of(Flags.parse(new String[] {"--rss-tolerance", "NaN"}, Soak.FLAGS, Map.of())),
                () -> Soak.Options.of(Flags.parse(new String[] {"--seconds", "20", "--warmup-seconds", "30"}, Soak.FLAGS, Map.of())),
                () -> SlowClients.Options.of(Flags.parse(new String[] {"--drip-ms", "1"}, SlowClients.FLAGS, Map.of())),
                () -> SlowClients.Options.of(Flags.parse(new String[0], SlowClients.FLAGS, Map.of("SLOW_PORT", "0"))));
        for (Runnable m : mistakes) {
            UsageError e = assertThrows(UsageError.class, m::run);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        UsageError env = assertThrows(UsageError.class, () -> SlowClients.Options.of(Flags.parse(new String[0], SlowClients.FLAGS, Map.of("SLOW_SECONDS", "x"))));
        assertTrue(env.getMessage().contains("SLOW_SECONDS"), env.getMessage());
    }
}
