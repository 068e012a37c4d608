package loomylin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import loomylin.cli.Flags;
import loomylin.cli.UsageError;
import loomylin.jetty.PoolKind;
import loomylin.web.BadParameter;
import loomylin.web.Json;
import loomylin.web.Params;
import org.junit.jupiter.api.Test;

/** The small shared pieces: pool specs, parameters, flags, JSON. */
class UnitsTest {

    @Test
    void poolKindsRoundTrip() {
        for (String spec : List.of("qtp:4", "qtp:32", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8"))
            assertEquals(spec, PoolKind.parse(spec).toString());
        assertEquals("qtp:4", PoolKind.parse(" QTP:4 ").toString());
        for (String bad : List.of("", "qtp", "qtp:0", "qtp:2", "qtp-vt:1", "qtp:-1", "qtp:20001", "loom:2", "fibers", "qtp:4:4", "qtp-vt"))
            assertThrows(IllegalArgumentException.class, () -> PoolKind.parse(bad), bad);
    }

    @Test
    void paramsAreStrict() {
        assertEquals(7, Params.integer(null, "ms", 7, 0, 10));
        assertEquals(10, Params.integer(List.of("10"), "ms", 7, 0, 10));
        assertEquals(0, Params.integer(List.of("0"), "ms", 7, 0, 10));
        for (String bad : List.of("11", "-1", "", " 1", "1e3", "０", "١", "0x1", "99999999999"))
            assertThrows(BadParameter.class, () -> Params.integer(List.of(bad), "ms", 7, 0, 10), bad);
        assertEquals("ms given 2 times; give it once", assertThrows(BadParameter.class, () -> Params.integer(List.of("1", "1"), "ms", 7, 0, 10)).getMessage());
        assertEquals("a?b", Params.printable("a\nb"));
        assertEquals(43, Params.printable("x".repeat(100)).length());
    }

    @Test
    void flagsBeatEnvironmentBeatsDefault() {
        List<Flags.Flag> known = List.of(new Flags.Flag("accept-queue", "N", "4096", ""), new Flags.Flag("help", null, null, ""));
        assertEquals(4096, Flags.parse(new String[0], known, Map.of()).integer("accept-queue", 1, 65535));
        assertEquals(64, Flags.parse(new String[0], known, Map.of("LOOMYLIN_ACCEPT_QUEUE", "64")).integer("accept-queue", 1, 65535));
        assertEquals(32, Flags.parse(new String[] {"--accept-queue=32"}, known, Map.of("LOOMYLIN_ACCEPT_QUEUE", "64")).integer("accept-queue", 1, 65535));
        UsageError e = assertThrows(UsageError.class, () -> Flags.parse(new String[0], known, Map.of("LOOMYLIN_ACCEPT_QUEUE", "lots")).integer("accept-queue", 1, 65535));
        assertTrue(e.getMessage().startsWith("LOOMYLIN_ACCEPT_QUEUE must be"), e.getMessage());
        assertThrows(UsageError.class, () -> Flags.parse(new String[] {"--accept-queue"}, known, Map.of()));
    }

    @Test
    void jsonRoundTripsAndRejectsJunk() {
        String text = Json.write(Map.of("a", List.of(1, "x\"y", true), "b", Map.of()));
        assertEquals(Map.of("a", List.of(1L, "x\"y", true), "b", Map.of()), Json.parse(text));
        assertEquals("u1", Json.stringField("{\"userId\": \"u1\"}", "userId"));
        for (String junk : List.of("", "{", "{\"userId\":\"u1\"", "[1,]", "{\"a\":1} x", "nul", "{\"userId\":1}", "[]", "\"\\x\""))
            assertThrows(Json.Malformed.class, () -> Json.stringField(junk, "userId"), junk);
    }
}
