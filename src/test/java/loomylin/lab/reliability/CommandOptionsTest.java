package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        SoakCommand.Options d = SoakCommand.Options.of(Flags.parse(new String[0], SoakCommand.FLAGS, Map.of()));
        assertEquals(List.of(600, 4, 10, 120, 0), List.of(d.seconds(), d.clientsPerPort(), d.thinkMs(), d.warmupSeconds(), d.port()),
                "warm-up: a quarter of 600 s, at most 120; free ports");
        assertEquals(Path.of("gfx/results/soak"), d.out());
        assertEquals(List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch"), d.javaOptions());
        SoakCommand.Options env = SoakCommand.Options.of(Flags.parse(new String[] {"--clients", "2"}, SoakCommand.FLAGS,
                Map.of("SOAK_PORT", "8000", "SOAK_SECONDS", "20", "SOAK_CLIENTS", "9", "SOAK_RSS_TOLERANCE", "0.5", "SOAK_JAVA_OPTS", " -Xmx1g  -Xms1g ")));
        assertEquals(List.of(8000, 20, 2, 10), List.of(env.port(), env.seconds(), env.clientsPerPort(), env.warmupSeconds()),
                "the flag beats its variable; the warm-up is at least 10 s");
        assertEquals(0.5, env.rssTolerance());
        assertEquals(List.of("-Xmx1g", "-Xms1g"), env.javaOptions());
    }

    @Test
    void slowClientsDefaultsVariablesAndFlags() {
        SlowClientsCommand.Options d = SlowClientsCommand.Options.of(Flags.parse(new String[0], SlowClientsCommand.FLAGS, Map.of()));
        assertEquals(new SlowClientsCommand.Options(Path.of("gfx/results/slow-clients"), 1024, 2000, 0, 2500, 1000, 20, 4, 10000, null), d);
        SlowClientsCommand.Options env = SlowClientsCommand.Options.of(Flags.parse(new String[] {"--normal", "3"}, SlowClientsCommand.FLAGS,
                Map.of("SLOW_CONNECTIONS", "10", "SLOW_NORMAL", "8", "SLOW_OUT", "out", "SLOW_HEADER_TIMEOUT_MS", "0")));
        assertEquals(new SlowClientsCommand.Options(Path.of("out"), 1024, 0, 0, 10, 1000, 20, 3, 10000, null), env);
    }

    @Test
    void mistakesAreOneLineUsageErrorsNamingTheFlagOrVariable() {
        List<Runnable> mistakes = List.of(
                () -> SoakCommand.Options.of(Flags.parse(new String[] {"--port", "70000"}, SoakCommand.FLAGS, Map.of())),
                () -> SoakCommand.Options.of(Flags.parse(new String[] {"--rss-tolerance", "NaN"}, SoakCommand.FLAGS, Map.of())),
                () -> SoakCommand.Options.of(Flags.parse(new String[] {"--seconds", "19"}, SoakCommand.FLAGS, Map.of())),
                () -> SoakCommand.Options.of(Flags.parse(new String[] {"--seconds", "20", "--warmup-seconds", "30"}, SoakCommand.FLAGS, Map.of())),
                () -> SlowClientsCommand.Options.of(Flags.parse(new String[] {"--drip-ms", "1"}, SlowClientsCommand.FLAGS, Map.of())),
                () -> SlowClientsCommand.Options.of(Flags.parse(new String[] {"--open-files", "100"}, SlowClientsCommand.FLAGS, Map.of())),
                () -> SlowClientsCommand.Options.of(Flags.parse(new String[0], SlowClientsCommand.FLAGS, Map.of("SLOW_PORT", "-1"))));
        for (Runnable m : mistakes) {
            UsageError e = assertThrows(UsageError.class, m::run);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        UsageError env = assertThrows(UsageError.class,
                () -> SlowClientsCommand.Options.of(Flags.parse(new String[0], SlowClientsCommand.FLAGS, Map.of("SLOW_SECONDS", "x"))));
        assertTrue(env.getMessage().contains("SLOW_SECONDS"), env.getMessage());
    }

    @Test
    void theRecordedCommandNamesTheVariablesSetAndQuotesWhatNeedsIt() {
        String line = ReliabilityRun.commandLine("soak", new String[] {"--out", "/tmp/a b"}, SoakCommand.FLAGS,
                Map.of("SOAK_SECONDS", "60", "HOME", "/root", "SOAK_JAVA_OPTS", "-Xmx1g -Xms1g"));
        assertEquals("SOAK_SECONDS=60 SOAK_JAVA_OPTS='-Xmx1g -Xms1g' java -jar loomylin.jar soak --out '/tmp/a b'", line);
    }
}
