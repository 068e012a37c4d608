package loomylin.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A flag's value: the command line beats the environment, which beats the default; mistakes are usage errors. */
class FlagsTest {
    static final List<Flags.Flag> KNOWN = List.of(new Flags.Flag("accept-queue", "N", "4096", ""), new Flags.Flag("help", null, null, ""),
            new Flags.Flag("jfr", null, null, ""), new Flags.Flag("heap", "SIZE", null, ""));

    private static int acceptQueue(String[] args, Map<String, String> env) {
        return Flags.parse(args, KNOWN, env).integer("accept-queue", 1, 65535);
    }

    @Test
    void withoutFlagOrVariableTheDefaultHolds() {
        assertEquals(4096, acceptQueue(new String[0], Map.of()));
    }

    @Test
    void theEnvironmentBeatsTheDefault() {
        assertEquals(64, acceptQueue(new String[0], Map.of("LOOMYLIN_ACCEPT_QUEUE", "64")));
    }

    @Test
    void theFlagBeatsTheEnvironment() {
        assertEquals(32, acceptQueue(new String[] {"--accept-queue=32"}, Map.of("LOOMYLIN_ACCEPT_QUEUE", "64")));
    }

    @Test
    void aBadVariableIsAUsageErrorNamingTheVariable() {
        UsageError e = assertThrows(UsageError.class, () -> acceptQueue(new String[0], Map.of("LOOMYLIN_ACCEPT_QUEUE", "lots")));
        assertTrue(e.getMessage().startsWith("LOOMYLIN_ACCEPT_QUEUE must be"), e.getMessage());
    }

    @Test
    void aFlagWithoutItsValueIsAUsageError() {
        assertThrows(UsageError.class, () -> Flags.parse(new String[] {"--accept-queue"}, KNOWN, Map.of()));
    }

    @Test
    void aSwitchIsOnWhenGivenOrItsVariableSaysTrue() {
        assertTrue(Flags.parse(new String[] {"--jfr"}, KNOWN, Map.of()).on("jfr"));
        assertTrue(Flags.parse(new String[] {}, KNOWN, Map.of("LOOMYLIN_JFR", "true")).on("jfr"));
        assertFalse(Flags.parse(new String[] {}, KNOWN, Map.of()).on("jfr"));
    }

    @Test
    void aSwitchTakesNoValue() {
        UsageError e = assertThrows(UsageError.class, () -> Flags.parse(new String[] {"--jfr=yes"}, KNOWN, Map.of()));
        assertTrue(e.getMessage().contains("--jfr is a switch"), e.getMessage());
    }

    @Test
    void aHeapIsASizeTheJvmTakesOrTheFallback() {
        assertEquals("512m", Flags.parse(new String[0], KNOWN, Map.of()).heap("heap", "512m"));
        assertEquals("2g", Flags.parse(new String[] {"--heap", " 2G "}, KNOWN, Map.of()).heap("heap", "512m"));
        for (String bad : List.of("lots", "2", "1t", "-Xmx2g", "2g -XX:+Evil")) {
            UsageError e = assertThrows(UsageError.class, () -> Flags.parse(new String[] {"--heap", bad}, KNOWN, Map.of()).heap("heap", "512m"), bad);
            assertTrue(e.getMessage().startsWith("--heap must be a heap size such as 512m or 2g"), e.getMessage());
        }
    }
}
