package loomylin.server.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import loomylin.server.cli.DataFile;
import loomylin.server.cli.StartupFailure;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The data file /mixed reads: made at start-up, streamed, removed on SIGTERM, and a bad directory refused in one line. */
class DataFileTest {
    static final int BYTES = 300_000;
    static final Pattern LOGGED = Pattern.compile("data file (\\S+) \\((\\d+) bytes\\)");

    @Test
    void theFileIsRandomAndCloseRemovesItAndItsTemporaryDirectory() throws Exception {
        DataFile file = DataFile.create(null, BYTES);
        Path dir = file.path().getParent();
        byte[] content = Files.readAllBytes(file.path());
        assertEquals(BYTES, content.length);
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(content);
        deflater.finish();
        byte[] out = new byte[BYTES * 2];
        assertTrue(deflater.deflate(out) > BYTES * 0.99, "random content does not compress");
        deflater.end();
        file.close();
        assertFalse(Files.exists(file.path()));
        assertFalse(Files.exists(dir), "the temporary directory goes too");
    }

    @IntegrationTest
    @ParameterizedTest(name = "{0}")
    @CsvSource({"java", "kotlin"})
    void theServerMakesStreamsAndRemovesItsDataFile(String twin, @TempDir Path dir) throws Exception {
        int port = Ports.free();
        try (ChildJvm c = ChildJvm.main("--twin", twin, "--pools", "loom", "--port", String.valueOf(port), "--backend-port", "0",
                "--data-dir", dir.toString(), "--data-file-bytes", String.valueOf(BYTES)).start()) {
            c.awaitOutput("ready", Duration.ofSeconds(30));
            List<Path> files = list(dir);
            assertEquals(1, files.size(), files.toString());
            Path file = files.get(0);
            assertEquals(BYTES, Files.size(file));
            Matcher logged = LOGGED.matcher(c.output());
            assertTrue(logged.find() && logged.group(1).equals(file.toString()), c.output());
            HttpClient client = HttpClient.newHttpClient();
            for (String route : List.of("/mixed", "/mixed-async")) {
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + route + "?cpu=0&file=" + BYTES)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, r.statusCode(), route);
                assertArrayEquals(Files.readAllBytes(file), r.body(), route + " streams the whole file");
            }
            c.signal("TERM"); // SIGTERM
            assertEquals(0, c.exit(Duration.ofSeconds(10)), c.output());
            assertEquals(List.of(), list(dir), "removed on exit");
        }
    }

    @IntegrationTest
    @Test
    void withoutDataDirTheFileGoesInATemporaryDirectoryThatIsRemovedOnExit() throws Exception {
        try (ChildJvm c = ChildJvm.main("--pools", "loom", "--port", "0", "--data-file-bytes", String.valueOf(BYTES)).start()) {
            c.awaitOutput("ready", Duration.ofSeconds(30));
            Matcher logged = LOGGED.matcher(c.output());
            assertTrue(logged.find(), c.output());
            Path file = Path.of(logged.group(1));
            assertEquals(BYTES, Files.size(file));
            assertTrue(file.startsWith(Path.of(System.getProperty("java.io.tmpdir"))), file.toString());
            c.signal("TERM");
            assertEquals(0, c.exit(Duration.ofSeconds(10)), c.output());
            assertFalse(Files.exists(file), "file removed");
            assertFalse(Files.exists(file.getParent()), "its temporary directory removed");
        }
    }

    @IntegrationTest
    @Test
    void aMissingDirectoryOrAFileIsOneLineAndExitStatus1(@TempDir Path dir) throws Exception {
        Path regular = Files.writeString(dir.resolve("plain.txt"), "x");
        for (String[] bad : List.of(new String[] {dir.resolve("missing").toString(), "no such directory"}, new String[] {regular.toString(), "not a directory"})) {
            try (ChildJvm c = ChildJvm.main("--pools", "loom", "--port", "0", "--data-dir", bad[0]).start()) {
                assertEquals(1, c.exit(Duration.ofSeconds(20)), c.output());
                String out = c.output().strip();
                assertEquals("loomylin: --data-dir " + bad[0] + ": " + bad[1], out);
            }
        }
    }

    @Test
    void anUnwritableDirectoryIsAStartupFailureNamingIt(@TempDir Path dir) throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        // root writes past permissions, but not into /proc
        Path locked = root ? Path.of("/proc") : Files.createDirectory(dir.resolve("locked"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-x------")));
        StartupFailure e = assertThrows(StartupFailure.class, () -> DataFile.create(locked, BYTES));
        assertTrue(e.getMessage().startsWith("cannot write the data file in --data-dir " + locked + ": "), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
        if (!root) assertEquals(List.of(), list(locked));
    }

    @IntegrationTest
    @Test
    void aDataFileSizeOutOfRangeIsOneLineAndExitStatus2() throws Exception {
        try (ChildJvm c = ChildJvm.main("--pools", "loom", "--port", "0", "--data-file-bytes", "5").start()) {
            assertEquals(2, c.exit(Duration.ofSeconds(20)), c.output());
            assertEquals("loomylin: --data-file-bytes must be a whole number from 100000 to 1073741824, got '5' (see --help)", c.output().strip());
        }
    }

    private static List<Path> list(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
