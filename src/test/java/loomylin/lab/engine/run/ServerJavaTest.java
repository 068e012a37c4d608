package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerJavaTest {

    /** A stand-in for a java: prints what {@code java -XshowSettings:properties -version} prints (to stderr, as java does). */
    private static Path fakeJava(Path dir, String spec, String version) throws Exception {
        Path java = dir.resolve("java-" + spec);
        Files.writeString(java, "#!/bin/sh\ncat >&2 <<'X'\nProperty settings:\n    java.runtime.version = " + version
                + "\n    java.specification.version = " + spec + "\n    java.vendor = Test Vendor\n    java.vm.name = Test VM\n\nopenjdk version \"" + spec + "\"\nX\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return java;
    }

    @Test
    void theBenchsOwnJavaIsTheDefaultAndDescribesItself() {
        ServerJava own = ServerJava.bench();
        assertEquals(Runtime.version().feature(), own.feature());
        assertTrue(own.described().contains(System.getProperty("java.runtime.version")), own.described());
        assertEquals(own.version(), ServerJava.probe(own.command()).version(), "probing the bench's own java reads the same version");
    }

    @Test
    void aJavaOf21OrLaterIsReadWithItsExactVersion(@TempDir Path dir) throws Exception {
        ServerJava j = ServerJava.probe(fakeJava(dir, "21", "21.0.8+9-LTS").toString());
        assertEquals(21, j.feature());
        assertEquals("21.0.8+9-LTS", j.version());
        assertEquals("Test VM 21.0.8+9-LTS (Test Vendor)", j.described());
    }

    @Test
    void everyWrongJavaIsOneLine(@TempDir Path dir) throws Exception {
        Path notExecutable = Files.writeString(dir.resolve("plain"), "x");
        Path notJava = dir.resolve("true-but-silent");
        Files.writeString(notJava, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(notJava, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String[] c : new String[][] {
                {dir.resolve("missing").toString(), "no executable file there"},
                {notExecutable.toString(), "no executable file there"},
                {notJava.toString(), "not a java"},
                {fakeJava(dir, "17", "17.0.15+6").toString(), "is Java 17; the servers need 21 or later"}}) {
            UsageError e = assertThrows(UsageError.class, () -> ServerJava.probe(c[0]), c[0]);
            assertTrue(e.getMessage().contains(c[1]) && !e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
