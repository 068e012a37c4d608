package loomylin.server.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** /proc/<pid>/stat and status, recorded from a Loomylin server (pid 22233) and a hey (pid 22452) on Linux 6.x. */
class ProcTest {
    static final long SERVER = 22233;
    static final long HEY = 22452;

    static ProcReader recorded() throws URISyntaxException {
        return new ProcReader(Path.of(ProcTest.class.getResource("/proc").toURI()));
    }

    @Test
    void readsTheServersStat() throws URISyntaxException {
        ProcStat s = recorded().stat(SERVER).orElseThrow();
        assertEquals(SERVER, s.pid());
        assertEquals("java", s.command());
        assertEquals('S', s.state());
        assertEquals(172 + 32, s.cpuTicks()); // utime + stime
        assertEquals(2.04, s.cpuSeconds(), 1e-9);
        assertEquals(0, s.childrenTicks());
        assertEquals(26, s.threads());
        assertEquals(2940256256L / 1024, s.vsizeKb());
        assertEquals(87072, s.rssPages());
    }

    @Test
    void readsTheServersStatus() throws URISyntaxException {
        ProcStatus s = recorded().status(SERVER).orElseThrow();
        assertEquals(348512, s.rssKb());
        assertEquals(348512, s.hwmKb());
        assertEquals(2871344, s.vszKb());
        assertEquals(2871344, s.peakVszKb());
        assertEquals(26, s.threads());
    }

    @Test
    void readsHeysStat() throws URISyntaxException {
        ProcStat s = recorded().stat(HEY).orElseThrow();
        assertEquals("hey", s.command());
        assertEquals(6, s.threads());
        assertEquals(7984, recorded().status(HEY).orElseThrow().rssKb());
    }

    @Test
    void aGoneProcessIsEmptyNotAnError() throws URISyntaxException {
        assertTrue(recorded().stat(1).isEmpty());
        assertTrue(recorded().status(1).isEmpty());
    }

    @Test
    void aCommandWithSpacesAndParenthesesDoesNotShiftTheFields() {
        String line = "77 (odd) name (x)) R 1 77 77 0 -1 4194304 10 0 0 0 5 6 7 8 20 0 3 0 100 4096000 250 "
                + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";
        ProcStat s = ProcStat.parse(line);
        assertEquals("odd) name (x)", s.command());
        assertEquals('R', s.state());
        assertEquals(11, s.cpuTicks());
        assertEquals(15, s.childrenTicks());
        assertEquals(3, s.threads());
        assertEquals(4000, s.vsizeKb());
        assertEquals(250, s.rssPages());
    }

    @Test
    void aZombieHasNoMemoryLines() {
        ProcStatus s = ProcStatus.parse("Name:\tjava\nState:\tZ (zombie)\nThreads:\t1\n");
        assertEquals(0, s.rssKb());
        assertEquals(0, s.hwmKb());
        assertEquals(1, s.threads());
    }

    @Test
    void garbageIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("no parentheses here"));
        assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("1 (java) S 1 2 3"));
        assertThrows(IllegalArgumentException.class, () -> ProcStatus.parse("VmRSS:\tlots\n"));
    }
}
