package loomylin.server.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The twin and the hop client as the command line writes them: read back from their labels, anything else refused in one line. */
class CommandLineValuesTest {

    @Test
    void eachTwinReadsBackFromItsLabel() {
        for (Twin t : Twin.values()) assertEquals(t, Twin.parse(t.label()));
        assertEquals("kotlin", Twin.KOTLIN.toString());
    }

    @Test
    void anUnknownTwinIsRefusedNamingTheFlag() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Twin.parse("Java"));
        assertEquals("--twin must be java or kotlin, got 'Java'", e.getMessage());
    }

    @Test
    void eachHopClientReadsBackFromItsLabel() {
        for (HopClientKind k : HopClientKind.values()) assertEquals(k, HopClientKind.parse(k.label()));
    }

    @Test
    void anUnknownHopClientIsRefusedListingTheOthers() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HopClientKind.parse("curl"));
        assertEquals("--hop-client must be one of jdk, url, jetty, got 'curl'", e.getMessage());
    }
}
