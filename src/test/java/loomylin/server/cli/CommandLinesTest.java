package loomylin.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * picocli reading a command's typed options as Loomylin reads flags: the command line beats the environment,
 * which beats the default; every mistake is one line naming the flag, or the variable the value came from.
 */
class CommandLinesTest {

    /** A command of each kind of flag: a ranged number, a switch, a domain value, a path, a repeatable one. */
    static final class Options {
        @Option(names = "--accept-queue", paramLabel = "N", defaultValue = "4096", description = "kernel accept backlog")
        @Whole(min = 1, max = 65535)
        int acceptQueue;

        @Option(names = "--wait-ms", paramLabel = "MS", description = "no default: null unless given")
        @Whole(min = 0, max = 600_000)
        Integer waitMs;

        @Option(names = "--jfr", description = "a switch")
        boolean jfr;

        @Option(names = "--colour", paramLabel = "red|blue", defaultValue = "red", converter = Colour.class, description = "a domain value")
        String colour;

        @Option(names = "--dir", paramLabel = "DIR", converter = CommandLines.PathValue.class, description = "a path")
        Path dir;

        @Option(names = "--tag", paramLabel = "TAG", description = "repeatable")
        List<String> tags = new ArrayList<>();

        @Option(names = "--name", paramLabel = "NAME", description = "free text")
        String name;
    }

    /** A domain parser: its message is the whole line, as PoolKind.parse and Twin.parse write theirs. */
    static final class Colour implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            if (text.equals("red") || text.equals("blue")) return text;
            throw new IllegalArgumentException("--colour must be red or blue, got '" + text + "'");
        }
    }

    private static Options parse(String args, Map<String, String> env) {
        Options o = new Options();
        assertFalse(CommandLines.parse(o, args.isBlank() ? new String[0] : args.trim().split("\\s+"), env));
        return o;
    }

    private static String mistake(String args, Map<String, String> env) {
        UsageError e = assertThrows(UsageError.class, () -> parse(args, env));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void theDefaultThenTheEnvironmentThenTheFlag() {
        assertEquals(4096, parse("", Map.of()).acceptQueue);
        assertEquals(64, parse("", Map.of("LOOMYLIN_ACCEPT_QUEUE", " 64 ")).acceptQueue);
        assertEquals(32, parse("--accept-queue=32", Map.of("LOOMYLIN_ACCEPT_QUEUE", "64")).acceptQueue);
        assertEquals(4096, parse("", Map.of("LOOMYLIN_ACCEPT_QUEUE", "  ")).acceptQueue, "a blank variable is not set");
        assertNull(parse("", Map.of()).waitMs);
        assertEquals(0, parse("--wait-ms 0", Map.of()).waitMs);
    }

    @Test
    void aBadVariableNamesTheVariableAndAGoodFlagHidesIt() {
        assertEquals("LOOMYLIN_ACCEPT_QUEUE must be a whole number from 1 to 65535, got 'lots'", mistake("", Map.of("LOOMYLIN_ACCEPT_QUEUE", "lots")));
        assertEquals("LOOMYLIN_ACCEPT_QUEUE must be a whole number from 1 to 65535, got '0'", mistake("", Map.of("LOOMYLIN_ACCEPT_QUEUE", "0")));
        assertEquals(8, parse("--accept-queue 8", Map.of("LOOMYLIN_ACCEPT_QUEUE", "lots")).acceptQueue);
    }

    @Test
    void theLastOfARepeatedFlagWinsAndARepeatableOneKeepsAll() {
        assertEquals(3, parse("--accept-queue 2 --accept-queue 3", Map.of()).acceptQueue);
        assertEquals(List.of("a", "b"), parse("--tag a --tag=b", Map.of()).tags);
        assertEquals(List.of(), parse("", Map.of("LOOMYLIN_TAG", "x")).tags, "a repeatable flag has no one variable");
    }

    @Test
    void aSwitchIsOnWhenGivenOrItsVariableSaysTrue() {
        assertTrue(parse("--jfr", Map.of()).jfr);
        assertTrue(parse("", Map.of("LOOMYLIN_JFR", "TRUE")).jfr);
        assertFalse(parse("", Map.of("LOOMYLIN_JFR", "yes")).jfr);
        assertFalse(parse("", Map.of()).jfr);
        assertTrue(parse("--jfr --jfr", Map.of()).jfr, "a switch given twice is on, not toggled off");
    }

    @Test
    void valuesAreTakenAsWritten() {
        assertEquals("@/etc/passwd", parse("--name @/etc/passwd", Map.of()).name, "no @-file expansion");
        assertEquals("${sys:user.home}", parse("", Map.of("LOOMYLIN_NAME", "${sys:user.home}")).name, "no ${...} interpolation");
        assertEquals("-5", parse("--name -5", Map.of()).name);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--accept-queue 99999  | --accept-queue must be a whole number from 1 to 65535, got '99999'",
            "--accept-queue x      | --accept-queue must be a whole number from 1 to 65535, got 'x'",
            "--accept-queue=-5     | --accept-queue must be a whole number from 1 to 65535, got '-5'",
            "--wait-ms 600001      | --wait-ms must be a whole number from 0 to 600000, got '600001'",
            "--accept-queue        | --accept-queue needs a value",
            "--accept-queue --jfr  | --accept-queue needs a value",
            "--frobnicate          | unknown flag --frobnicate",
            "--frobnicate=3        | unknown flag --frobnicate",
            "stray                 | unexpected argument 'stray'",
            "-x                    | unexpected argument '-x'",
            "--jfr=yes             | --jfr is a switch and takes no value",
            "--                    | unknown flag --",
            "-- --jfr              | unknown flag --",
            "--colour green        | --colour must be red or blue, got 'green'",
            "--dir a\u0000b        | --dir is not a path: 'a?b'"})
    void aMistakeIsOneLineNamingTheFlag(String args, String message) {
        assertEquals(message, mistake(args, Map.of()));
    }

    @Test
    void aDomainValueFromTheEnvironmentKeepsItsParsersLine() {
        assertEquals("--colour must be red or blue, got 'green'", mistake("", Map.of("LOOMYLIN_COLOUR", "green")));
        assertEquals("LOOMYLIN_DIR is not a path: 'a?b'", mistake("", Map.of("LOOMYLIN_DIR", "a\u0000b")));
    }

    @Test
    void helpIsAskedWithEitherName() {
        assertTrue(CommandLines.parse(new Options(), new String[] {"--help"}, Map.of()));
        assertTrue(CommandLines.parse(new Options(), new String[] {"-h"}, Map.of()));
        assertTrue(CommandLines.parse(new Options(), new String[] {"--accept-queue", "1", "-h"}, Map.of()));
        assertTrue(CommandLines.parse(new Options(), new String[] {"--accept-queue", "x", "--help"}, Map.of()), "the help wins over a wrong value");
    }

    @Test
    void theFlagTableListsEveryFlagWithItsDefaultAndVariable() {
        String table = CommandLines.flagTable(new Options());
        assertEquals(List.of("--accept-queue", "--wait-ms", "--jfr", "--colour", "--dir", "--tag", "--name", "--help"), CommandLines.flagNames(new Options()));
        for (String flag : CommandLines.flagNames(new Options())) assertTrue(table.contains("  " + flag), table);
        assertTrue(table.contains("(default 4096; env LOOMYLIN_ACCEPT_QUEUE)"), table);
        assertTrue(table.contains("(env LOOMYLIN_WAIT_MS)"), table);
        assertTrue(table.contains("(env LOOMYLIN_JFR)"), table);
        assertFalse(table.contains("LOOMYLIN_TAG") || table.contains("LOOMYLIN_HELP"), table);
        assertTrue(table.contains("  --accept-queue N"), table);
    }
}
