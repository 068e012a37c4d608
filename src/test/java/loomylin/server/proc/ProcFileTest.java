package loomylin.server.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real /proc files read whole, including the /proc/sys values the kernel hands out in one read only. */
class ProcFileTest {

    @Test
    void aProcSysValueIsReadWhole() throws IOException {
        String range = ProcFile.read(ProcLimits.PORT_RANGE).trim();
        assertEquals(2, List.of(range.split("\\s+")).size(), "two ports in '" + range + "'");
    }

    @Test
    void thisProcessStatusHasItsThreads() {
        ProcStatus self = ProcReader.SYSTEM.status(ProcessHandle.current().pid()).orElseThrow();
        assertTrue(self.threads() > 0, "threads of this JVM, got " + self.threads());
        assertTrue(self.rssKb() > 0, "resident memory of this JVM, got " + self.rssKb());
    }

    @Test
    void eachLineEndsWithANewline() throws IOException {
        String stat = ProcFile.read(Path.of("/proc/self/stat"));
        assertTrue(stat.endsWith("\n") && stat.indexOf('\n') == stat.length() - 1, "one line: '" + stat + "'");
    }
}
