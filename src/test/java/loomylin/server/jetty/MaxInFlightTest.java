package loomylin.server.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --max-in-flight}'s spellings: a number, auto and its three algorithms; anything else one line. */
class MaxInFlightTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0, 0, fixed, false", "150, 150, fixed, true", "10000000, 10000000, fixed, true",
            "auto, auto:gradient2, gradient2, true", "auto:gradient2, auto:gradient2, gradient2, true",
            "auto:vegas, auto:vegas, vegas, true", "auto:aimd, auto:aimd, aimd, true"})
    void everySpellingReadsBackAsWritten(String text, String written, String algorithm, boolean set) {
        MaxInFlight m = MaxInFlight.parse(text);
        assertEquals(written, m.toString());
        assertEquals(algorithm, m.algorithmName());
        assertEquals(set, m.isSet());
        assertEquals(m, MaxInFlight.parse(m.toString()));
    }

    @Test
    void autoIsGradient2WithItsBounds() {
        MaxInFlight auto = MaxInFlight.parse("auto");
        assertEquals(MaxInFlight.Algorithm.GRADIENT2, auto.algorithm());
        assertTrue(auto.adaptive());
        assertEquals(MaxInFlight.AUTO_MIN, auto.min());
        assertEquals(MaxInFlight.AUTO_MAX, auto.max());
        assertTrue(auto.min() <= MaxInFlight.AUTO_INITIAL && MaxInFlight.AUTO_INITIAL <= auto.max());
        MaxInFlight fixed = MaxInFlight.parse("7");
        assertFalse(fixed.adaptive());
        assertEquals(7, fixed.min());
        assertEquals(7, fixed.max());
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"auto:foo", "autox", "auto:", "AUTO", "auto:Vegas", "-1", "10000001", "99999999999", "1.5", "", " auto: vegas"})
    void aBadSpellingIsOneLine(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MaxInFlight.parse(text));
        assertTrue(e.getMessage().startsWith("--max-in-flight takes a whole number from 0 to 10000000 or auto, auto:gradient2, auto:vegas, auto:aimd; got '"),
                e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
