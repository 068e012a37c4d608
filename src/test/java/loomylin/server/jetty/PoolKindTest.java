package loomylin.server.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pool specs as a user writes them: each kind reads back as written, and a bad spec is refused. */
class PoolKindTest {

    @ParameterizedTest
    @ValueSource(strings = {"qtp:4", "qtp:32", "qtp:8-200", "qtp:1-3", "qtp:19999-20000", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8", "qtp-vtp:8:200"})
    void everyKindReadsBackAsWritten(String spec) {
        assertEquals(spec, PoolKind.parse(spec).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {" QTP:4 ", "qtp:4", "Qtp:4"})
    void caseAndSurroundingSpaceDoNotMatter(String spec) {
        assertEquals("qtp:4", PoolKind.parse(spec).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "qtp", "qtp:0", "qtp:2", "qtp-vt:1", "qtp:-1", "qtp:20001", "loom:2", "fibers", "qtp:4:4", "qtp-vt",
            "qtp-vt:8:200", "jetty-vtp:8:200", "qtp-vtp", "qtp-vtp:8", "qtp-vtp:2:200", "qtp-vtp:8:0", "qtp-vtp:8:20001", "qtp-vtp:8:2:2",
            "qtp:0-5", "qtp:9-8", "qtp:8-8", "qtp:8-", "qtp:-200", "qtp:a-b", "qtp:8-200-300", "qtp:1-2", "qtp:8-20001", "qtp:20001-30000",
            "qtp:8-9999999999", "qtp:8-200:5", "qtp-vt:8-200", "qtp-vtp:8-200:200", "jetty-vtp:8-200", "loom:8-200"})
    void aBadSpecIsRefused(String bad) {
        assertThrows(IllegalArgumentException.class, () -> PoolKind.parse(bad));
    }

    /** Each refusal is one line that names the spec, as the command line prints it. */
    @ParameterizedTest
    @ValueSource(strings = {"qtp:0-5", "qtp:9-8", "qtp:8-8", "qtp:8-", "qtp:a-b", "qtp:8-20001", "qtp-vt:8-200"})
    void aBadRangeIsRefusedInOneLineNamingTheSpec(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PoolKind.parse(bad));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void aRangeKeepsItsMostAsTheSizeAndItsFewestAsMin() {
        PoolKind growing = PoolKind.parse("qtp:8-200");
        assertEquals(PoolKind.Type.QTP, growing.type());
        assertEquals(200, growing.size(), "the size is the most threads, as qtp:200's: Little's law's knee reads it");
        assertEquals(8, growing.min());
        assertTrue(growing.grows());
        PoolKind fixed = PoolKind.parse("qtp:200");
        assertEquals(0, fixed.min());
        assertFalse(fixed.grows());
        assertNotEquals(fixed, growing);
        assertTrue(growing.describe().contains("8 platform threads at start, growing to 200"), growing.describe());
    }

    @org.junit.jupiter.api.Test
    void aRangeEqualToItsMostPointsToTheFixedKind() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PoolKind.parse("qtp:8-8"));
        assertTrue(e.getMessage().endsWith("is qtp:8)"), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void thePreferredShapeKeepsItsPlatformThreadsAndItsTaskCapApart() {
        PoolKind kind = PoolKind.parse("qtp-vtp:8:200");
        assertEquals(PoolKind.Type.QTP_VTP, kind.type());
        assertEquals(8, kind.size());
        assertEquals(200, kind.cap());
    }
}
