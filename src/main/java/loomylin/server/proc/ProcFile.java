package loomylin.server.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads one {@code /proc} file whole. The kernel hands many {@code /proc/sys} values out in the first
 * {@code read()} only, and a read at a later offset returns end-of-file; {@code Files.readString} and
 * {@code Files.readAllBytes} size their first read by the file's size, which {@code /proc} reports as 0, so they
 * get one byte ({@code "3"} of {@code "32768 60999"}). {@code Files.readAllLines} reads through an 8 KiB buffer,
 * which holds every file read here in one go.
 */
final class ProcFile {
    private ProcFile() {
    }

    /** The file's lines, each ended by a newline. */
    static String read(Path file) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(file)) text.append(line).append('\n');
        return text.toString();
    }
}
