package loomylin.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.server.cli.UsageError;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bench NAME [flags]}: an experiment that owns its flags reads them as every Loomylin command does, refuses
 * another experiment's, and answers each mistake in one line; a {@code --preset} that became a command names the
 * command to type. Nothing here measures: every case is refused, or answered with help, before a JVM starts.
 */
class ExperimentCommandsTest {
    private static String refused(Map<String, String> env, String... args) {
        return assertThrows(UsageError.class, () -> Bench.command(args, env, new PrintStream(OutputStream.nullOutputStream())), String.join(" ", args)).getMessage();
    }

    /** Each case: the command's arguments, then the one line that refuses them. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "connections --hey /bin/true | unknown flag --hey",
            "connections --twin kotlin | unknown flag --twin",
            "connections --duration=8s | unknown flag --duration",
            "connections --rerender | unknown flag --rerender",
            "seed004 --connections 100 | unknown flag --connections",
            "seed004 --repeat 2 | unknown flag --repeat",
            "seed004 --preset quick | unknown flag --preset",
            "connections --measure ten | --measure must be a whole number from 1 to 3600, got 'ten'",
            "seed004 --invocations 6 | --invocations must be a whole number from 1 to 5, got '6'",
            "seed004 --twin c | --twin must be java or kotlin, got 'c'",
            "seed004 --out | --out needs a value",
            "connections 100 | unexpected argument '100'",
            "seed04 --out x | bench has no experiment 'seed04'; its commands are connections, seed004, the other experiments are --preset NAME"})
    void aForeignFlagAndEveryMistakeIsOneLine(String args, String line) {
        assertEquals(line, refused(Map.of(), args.split(" ")));
    }

    @Test
    void aVariablesMistakeNamesTheVariable() {
        assertEquals("LOOMYLIN_REPEAT must be a whole number from 1 to 20, got '0'", refused(Map.of("LOOMYLIN_REPEAT", "0"), "connections"));
        assertEquals("--pools lists nothing", refused(Map.of("LOOMYLIN_REPEAT", "x"), "seed004", "--pools", ","), "a variable of a flag seed004 lacks is ignored");
    }

    @Test
    void aPresetThatBecameACommandAnswersWithTheCommandToType() {
        assertEquals("--preset seed004 is a command of its own now: java -jar loomylin.jar bench seed004 --out x --pools loom",
                assertThrows(UsageError.class, () -> Bench.main(new String[] {"--preset", "seed004", "--out", "x", "--pools", "loom"})).getMessage());
        assertEquals("--preset connections is a command of its own now: java -jar loomylin.jar bench connections --measure 1",
                assertThrows(UsageError.class, () -> Bench.main(new String[] {"--preset=connections", "--measure", "1"})).getMessage());
    }

    @Test
    void helpListsAnExperimentsOwnFlagsAndTheBenchListsTheExperiments() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertNull(Bench.command(new String[] {"connections", "--help"}, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        String help = out.toString(StandardCharsets.UTF_8);
        assertTrue(help.startsWith("Usage: java -jar loomylin.jar bench connections [flags]\n\nthe echo seed"), help);
        for (String flag : List.of("--out DIR", "--invocations N", "--java PATH", "--repeat K", "--connections N,N,...", "--measure S", "--help"))
            assertTrue(help.contains("\n  " + flag + " "), flag + " in " + help);
        assertTrue(help.contains("(default 10; env LOOMYLIN_MEASURE)") && help.contains("(env LOOMYLIN_CONNECTIONS)"), help);
        assertFalse(help.contains("--twin") || help.contains("--hey"), "seed004's flags are not connections': " + help);
        String bench = BenchFlags.help();
        assertTrue(bench.contains("\n  connections the echo seed") && bench.contains("\n  seed004     the fibers-server seed's"), bench);
        assertFalse(bench.contains("|seed004|") || bench.contains("|connections|"), "no longer presets: " + bench);
    }

    /** Through the jar's entry point, as a user types it: one line on stderr, exit status 2, no stack trace. */
    @IntegrationTest
    @Test
    void throughTheEntryPointEachMistakeIsOneLineAndExitStatus2() throws Exception {
        Map<List<String>, String> cases = Map.of(
                List.of("bench", "connections", "--no-such-flag"), "unknown flag --no-such-flag",
                List.of("bench", "seed004", "--concurrency", "0"), "--concurrency takes whole numbers from 1 to 10000, got '0'",
                List.of("bench", "connections", "--repeat", "many"), "--repeat must be a whole number from 1 to 20, got 'many'",
                List.of("bench", "nosuch"), "bench has no experiment 'nosuch'; its commands are connections, seed004, the other experiments are --preset NAME");
        for (Map.Entry<List<String>, String> c : cases.entrySet()) {
            try (ChildJvm bench = ChildJvm.main(c.getKey().toArray(String[]::new)).start()) {
                assertEquals(2, bench.exit(Duration.ofSeconds(60)), c.getKey().toString());
                assertEquals("loomylin: " + c.getValue() + " (see --help)\n", bench.output(), c.getKey().toString());
            }
        }
    }
}
