package loomylin.server.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The open-files limit and the ephemeral port range, from recorded files and from this machine's own /proc. */
class ProcLimitsTest {

    @Test
    void theRealPortRangeIsReadWhole() {
        // The kernel gives /proc/sys values out in the first read only: a reader that starts with a 1-byte read sees "3" and then EOF.
        OptionalLong ports = ProcLimits.ephemeralPorts(ProcLimits.PORT_RANGE);
        assertTrue(ports.isPresent(), "this Linux machine has " + ProcLimits.PORT_RANGE);
        assertTrue(ports.getAsLong() > 1 && ports.getAsLong() <= 65_536, "a range of ports, got " + ports.getAsLong());
    }

    @Test
    void aRecordedPortRangeSpansBothEnds(@TempDir Path dir) throws Exception {
        Path range = Files.writeString(dir.resolve("ip_local_port_range"), "32768\t60999\n");
        assertEquals(OptionalLong.of(28_232), ProcLimits.ephemeralPorts(range));
    }

    @Test
    void aMissingOrUnreadablePortRangeIsEmpty(@TempDir Path dir) throws Exception {
        assertTrue(ProcLimits.ephemeralPorts(dir.resolve("none")).isEmpty());
        assertTrue(ProcLimits.ephemeralPorts(Files.writeString(dir.resolve("odd"), "32768\n")).isEmpty());
    }

    @Test
    void theRealOpenFilesLimitIsANumberOrUnlimited() throws Exception {
        boolean unlimited = Files.readAllLines(ProcLimits.SELF).stream().anyMatch(l -> l.startsWith("Max open files") && l.contains("unlimited"));
        OptionalLong files = ProcLimits.openFiles(ProcLimits.SELF);
        assertEquals(unlimited, files.isEmpty(), "Max open files of " + ProcLimits.SELF);
        files.ifPresent(n -> assertTrue(n > 0, "a positive limit, got " + n));
    }
}
