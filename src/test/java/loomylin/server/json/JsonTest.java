package loomylin.server.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;

/** The project's one JSON mapper: what it writes reads back the same, and it reads nothing but one complete value. */
class JsonTest {

    @Test
    void mapsListsStringsNumbersBooleansAndNullRoundTrip() {
        Map<String, Object> value = Map.of("a", List.of(1, "x", true, false), "b", Map.of(), "c", Arrays.asList(null, 2.5));
        assertEquals(value, Json.parse(Json.write(value)));
    }

    record Figures(String name, int count, List<Double> values) {
    }

    @Test
    void aRecordIsWrittenAsAnObjectInComponentOrder() {
        assertEquals("{\"name\":\"x\",\"count\":2,\"values\":[1.5]}", Json.write(new Figures("x", 2, List.of(1.5))));
    }

    @Test
    void aMapKeepsItsOrder() {
        Map<String, Object> ordered = new LinkedHashMap<>();
        ordered.put("z", 1);
        ordered.put("a", 2);
        assertEquals("{\"z\":1,\"a\":2}", Json.write(ordered));
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscapedAndReadBack() {
        String tricky = "q\"b\\n\nr\rt\tbell\u0007";
        assertEquals(tricky, Json.parse(Json.write(tricky)));
    }

    @Test
    void nanAndInfinityAreWrittenAsStringsNotBareTokens() {
        assertEquals("[\"NaN\",\"Infinity\"]", Json.write(List.of(Double.NaN, Double.POSITIVE_INFINITY)));
    }

    @Test
    void wholeNumbersAreIntegersOrLongsAndTheRestDoubles() {
        assertEquals(List.of(-42, 123456789012345678L, 1.5, -2e3), Json.parse("[-42, 123456789012345678, 1.5, -2e3]"));
    }

    @Test
    void spaceAroundValuesIsAllowed() {
        assertEquals(Map.of("a", List.of(1)), Json.parse(" \t\r\n{ \"a\" : [ 1 ] }\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "{", "[1,]", "{\"a\":1} x", "{} {}", "nul", "\"\\x\"", "\"a\nb\"", "\"\\u12\"", "{a:1}", "1-2", "[1 2]",
            "01", "1.", "NaN", "[1] // comment", "'a'"})
    void anythingButOneCompleteValueIsRefused(String junk) {
        assertThrows(JacksonException.class, () -> Json.parse(junk));
    }

    @Test
    void theTreeReaderIsAsStrict() {
        assertThrows(JacksonException.class, () -> Json.tree("{\"a\":1} x"));
        assertEquals(1, Json.tree("{\"a\":1}").get("a").intValue());
    }
}
