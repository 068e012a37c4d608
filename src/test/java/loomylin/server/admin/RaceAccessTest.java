package loomylin.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --race-from and --admin-hosts as the admin port reads them: addresses, ranges, gateway, and one-line mistakes. */
class RaceAccessTest {

    @Test
    void addressesAndRangesMatchWhatTheySay() throws Exception {
        List<RaceAccess.Range> ranges = RaceAccess.parseFrom("172.17.0.1, 10.0.0.0/8,fd00::/8");
        assertEquals("[172.17.0.1/32, 10.0.0.0/8, fd00:0:0:0:0:0:0:0/8]", ranges.toString());
        assertTrue(ranges.get(0).contains(InetAddress.getByName("172.17.0.1")));
        assertFalse(ranges.get(0).contains(InetAddress.getByName("172.17.0.2")));
        assertTrue(ranges.get(1).contains(InetAddress.getByName("10.250.3.4")));
        assertFalse(ranges.get(1).contains(InetAddress.getByName("11.0.0.1")));
        assertTrue(ranges.get(2).contains(InetAddress.getByName("fd12::1")));
        assertFalse(ranges.get(2).contains(InetAddress.getByName("10.0.0.1")), "an IPv6 range never holds an IPv4 address");
        assertEquals(List.of(), RaceAccess.parseFrom(""), "empty: loopback only");
    }

    @Test
    void gatewayIsTheDefaultRoutesGatewayOrNothing() {
        List<RaceAccess.Range> ranges = RaceAccess.parseFrom("gateway");
        assertTrue(ranges.size() <= 1, ranges.toString());
        ranges.forEach(r -> assertEquals(32, r.prefix()));
    }

    @Test
    void mistakesAreOneLineWithoutANameLookup() {
        for (String bad : List.of("evil.example", "10.0.0.0/33", "10.0.0.0/x", "999.1.1.1", "1.2.3", "localhost")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RaceAccess.parseFrom(bad), bad);
            assertTrue(e.getMessage().startsWith("--race-from "), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        assertEquals(List.of("loomylin.example", "box"), RaceAccess.parseHosts("loomylin.example, box"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RaceAccess.parseHosts("http://x/"));
        assertTrue(e.getMessage().startsWith("--admin-hosts takes host names"), e.getMessage());
    }
}
