package loomylin.lab.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientBinaryTest {
    @TempDir
    Path dir;

    private Path executable(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    }

    @Test
    void findsEachClientOnPath() throws IOException {
        Path bin = dir.resolve("bin");
        for (Client c : Client.values()) {
            Path tool = executable(bin.resolve(c.label()));
            assertEquals(tool, ClientBinary.locate(c, null, dir.resolve("empty") + ":" + bin, dir.resolve("home")));
        }
    }

    @Test
    void ohaIsAlsoFoundWhereCargoInstallsIt() throws IOException {
        Path oha = executable(dir.resolve("home/.cargo/bin/oha"));
        assertEquals(oha, ClientBinary.locate(Client.OHA, null, dir.toString(), dir.resolve("home")));
        assertThrows(UsageError.class, () -> ClientBinary.locate(Client.WRK, null, dir.toString(), dir.resolve("home")));
    }

    @Test
    void aMissingClientTellsHowToInstallIt() {
        UsageError hey = assertThrows(UsageError.class, () -> ClientBinary.locate(Client.HEY, null, dir.toString(), dir));
        assertTrue(hey.getMessage().contains("apt install hey | go install github.com/rakyll/hey@latest | brew install hey"), hey.getMessage());
        UsageError oha = assertThrows(UsageError.class, () -> ClientBinary.locate(Client.OHA, null, dir.toString(), dir));
        assertTrue(oha.getMessage().contains("cargo install oha --version 1.16.0 --locked"), oha.getMessage());
    }

    @Test
    void aGivenPathMustBeAnExecutable() throws IOException {
        Path notExecutable = Files.writeString(dir.resolve("hey"), "");
        UsageError e = assertThrows(UsageError.class, () -> ClientBinary.locate(Client.HEY, notExecutable, null, dir));
        assertTrue(e.getMessage().startsWith("--hey "), e.getMessage());
    }

    @Test
    void aVersionPrintedBeforeAFailingExitIsKept() throws IOException {
        // wrk -v prints "wrk 4.x [epoll] ..." and exits 1; the version must still reach provenance.json
        Path fake = executable(dir.resolve("bin/wrk"));
        Files.writeString(fake, "#!/bin/sh\necho 'wrk 4.1.0 [epoll] Copyright'\necho 'Usage: wrk'\nexit 1\n");
        assertTrue(ClientBinary.version(Client.WRK, fake).startsWith("wrk 4.1.0 [epoll]"), ClientBinary.version(Client.WRK, fake));
        assertEquals("", Commands.firstLine(java.util.List.of(fake.toString())), "other commands still need exit status 0");
    }
}
