package loomylin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import loomylin.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeyBinaryTest {
    @TempDir
    Path dir;

    @Test
    void findsHeyOnPath() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path hey = Files.createFile(bin.resolve("hey"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        assertEquals(hey, HeyBinary.locate(null, dir.resolve("empty") + ":" + bin));
    }

    @Test
    void missingHeyTellsHowToInstallIt() {
        UsageError e = assertThrows(UsageError.class, () -> HeyBinary.locate(null, dir.toString()));
        assertTrue(e.getMessage().contains("apt install hey"), e.getMessage());
        assertTrue(e.getMessage().contains("go install github.com/rakyll/hey@latest"), e.getMessage());
        assertTrue(e.getMessage().contains("brew install hey"), e.getMessage());
    }

    @Test
    void aGivenPathMustBeAnExecutable() throws IOException {
        Path notExecutable = Files.writeString(dir.resolve("hey"), "");
        assertThrows(UsageError.class, () -> HeyBinary.locate(notExecutable, null));
    }
}
