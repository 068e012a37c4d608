package loomylin.server.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** The agent's arguments: every pool kind {@code --pool} takes, the admin port and address, and each mistake in one line. */
class AgentOptionsTest {

    @Test
    void everyPoolKindAndTheAdminPort() {
        for (String kind : List.of("qtp:4", "qtp:8-200", "loom", "jetty-vtp", "jetty-vtp:200", "qtp-vt:8", "qtp-vtp:8:200")) {
            AgentOptions o = AgentOptions.parse("pool=" + kind);
            assertEquals(PoolKind.parse(kind), o.pool());
            assertEquals(-1, o.adminPort(), "no admin port unless asked");
        }
        AgentOptions o = AgentOptions.parse("pool=loom,admin=7104");
        assertEquals(7104, o.adminPort());
        assertEquals("127.0.0.1", o.adminHost(), "loopback unless asked: the application never asked for this port");
        assertEquals("0.0.0.0", AgentOptions.parse(" admin=0 , pool=loom , admin-host=0.0.0.0 ").adminHost());
    }

    @Test
    void eachMistakeIsOneLine() {
        for (String bad : List.of("", "loom", "pool=", "pool=banana", "pool=qtp", "pool=loom,admin=seven", "pool=loom,admin=70000",
                "pool=loom,admin=-1", "pool=loom,colour=blue", "pool=loom,pool=qtp:4", "pool=loom,admin-host=0.0.0.0", "pool=loom,admin=1,admin-host=")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse(bad), bad);
            assertFalse(e.getMessage().isBlank() || e.getMessage().contains("\n"), bad + ": " + e.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse(null)).getMessage().contains(AgentOptions.USAGE));
    }
}
