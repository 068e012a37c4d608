package loomylin.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pool specs as a user writes them: each kind reads back as written, and a bad spec is refused. */
class PoolKindTest {

    @ParameterizedTest
    @ValueSource(strings = {"qtp:4", "qtp:32", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8", "qtp-vtp:8:200"})
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
            "qtp-vt:8:200", "jetty-vtp:8:200", "qtp-vtp", "qtp-vtp:8", "qtp-vtp:2:200", "qtp-vtp:8:0", "qtp-vtp:8:20001", "qtp-vtp:8:2:2"})
    void aBadSpecIsRefused(String bad) {
        assertThrows(IllegalArgumentException.class, () -> PoolKind.parse(bad));
    }

    @org.junit.jupiter.api.Test
    void thePreferredShapeKeepsItsPlatformThreadsAndItsTaskCapApart() {
        PoolKind kind = PoolKind.parse("qtp-vtp:8:200");
        assertEquals(PoolKind.Type.QTP_VTP, kind.type());
        assertEquals(8, kind.size());
        assertEquals(200, kind.cap());
    }
}
