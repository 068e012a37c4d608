package loomylin.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Query parameters are read strictly: a default when absent, plain decimal digits within bounds, given once. */
class ParamsTest {

    @Test
    void anAbsentParameterTakesTheDefault() {
        assertEquals(7, Params.integer(null, "ms", 7, 0, 10));
    }

    @Test
    void bothBoundsAreAccepted() {
        assertEquals(0, Params.integer(List.of("0"), "ms", 7, 0, 10));
        assertEquals(10, Params.integer(List.of("10"), "ms", 7, 0, 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {"11", "-1", "", " 1", "1e3", "０", "١", "0x1", "99999999999"})
    void anythingButPlainDigitsWithinBoundsIsABadParameter(String bad) {
        assertThrows(BadParameter.class, () -> Params.integer(List.of(bad), "ms", 7, 0, 10));
    }

    @Test
    void aParameterGivenTwiceIsABadParameterSayingSo() {
        BadParameter e = assertThrows(BadParameter.class, () -> Params.integer(List.of("1", "1"), "ms", 7, 0, 10));
        assertEquals("ms given 2 times; give it once", e.getMessage());
    }

    @Test
    void printableReplacesControlCharactersAndShortensLongText() {
        assertEquals("a?b", Params.printable("a\nb"));
        assertEquals(43, Params.printable("x".repeat(100)).length());
    }
}
