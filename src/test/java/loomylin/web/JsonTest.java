package loomylin.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The project's JSON: what it writes reads back the same, and the reader refuses anything but one complete value. */
class JsonTest {

    @Test
    void mapsListsStringsNumbersBooleansAndNullRoundTrip() {
        Map<String, Object> value = Map.of("a", List.of(1L, "x", true, false), "b", Map.of(), "c", Arrays.asList(null, 2.5));
        assertEquals(value, Json.parse(Json.write(value)));
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscapedAndReadBack() {
        String tricky = "q\"b\\n\nr\rt\tbell\u0007";
        String written = Json.write(tricky);
        assertEquals("\"q\\\"b\\\\n\\nr\\rt\\tbell\\u0007\"", written);
        assertEquals(tricky, Json.parse(written));
    }

    @Test
    void unicodeEscapesAndEveryShortEscapeAreRead() {
        assertEquals("é/\b\f", Json.parse("\"\\u00e9\\/\\b\\f\""));
    }

    @Test
    void wholeNumbersAreLongsAndTheRestDoubles() {
        assertEquals(List.of(-42L, 123456789012345678L, 1.5, -2e3), Json.parse("[-42, 123456789012345678, 1.5, -2e3]"));
    }

    @Test
    void spaceAroundValuesIsAllowed() {
        assertEquals(Map.of("a", List.of(1L)), Json.parse(" \t\r\n{ \"a\" : [ 1 ] }\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "[1,]", "{\"a\":1} x", "nul", "\"\\x\"", "\"a\nb\"", "\"\\u12\"", "\"\\uzzzz\"", "{a:1}", "1-2", "[1 2]"})
    void anythingButOneCompleteValueIsMalformed(String junk) {
        assertThrows(Json.Malformed.class, () -> Json.parse(junk));
    }

    @Test
    void nestingDeeperThan64IsMalformed() {
        assertEquals(List.of(), unwrap(Json.parse("[".repeat(64) + "]".repeat(64)), 63));
        assertThrows(Json.Malformed.class, () -> Json.parse("[".repeat(65) + "]".repeat(65)));
    }

    @Test
    void stringFieldReadsANonEmptyStringField() {
        assertEquals("u1", Json.stringField("{\"userId\": \"u1\", \"other\": 2}", "userId"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"userId\":1}", "{\"userId\":\"\"}", "{\"userId\":null}", "{}", "[]", "\"u1\"", "{\"userId\":\"u1\""})
    void stringFieldRefusesAnythingElse(String text) {
        assertThrows(Json.Malformed.class, () -> Json.stringField(text, "userId"));
    }

    private static Object unwrap(Object value, int levels) {
        for (int i = 0; i < levels; i++) value = ((List<?>) value).get(0);
        return value;
    }
}
