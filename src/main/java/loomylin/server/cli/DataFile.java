package loomylin.server.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The file /mixed reads: {@code bytes} of random content (so no layer can compress it), written at start-up
 * into a fresh temporary directory, or into {@code --data-dir} under a unique name. {@link #close()} deletes
 * it, and the temporary directory if it made one. A directory that is missing, not a directory or not
 * writable is a {@link StartupFailure} naming it.
 */
public final class DataFile implements AutoCloseable {
    private final Path path;
    private final Path madeDir;
    private final int bytes;

    private DataFile(Path path, Path madeDir, int bytes) {
        this.path = path;
        this.madeDir = madeDir;
        this.bytes = bytes;
    }

    /** Writes the file; {@code dir} null means a new temporary directory. */
    public static DataFile create(Path dir, int bytes) {
        Path madeDir = null;
        Path file = null;
        try {
            if (dir == null) {
                madeDir = Files.createTempDirectory("loomylin-data-");
            } else if (!Files.isDirectory(dir)) {
                throw new StartupFailure("--data-dir " + dir + ": " + (Files.exists(dir) ? "not a directory" : "no such directory"));
            }
            file = Files.createTempFile(dir == null ? madeDir : dir, "loomylin-data-", ".bin");
            write(file, bytes);
            return new DataFile(file, madeDir, bytes);
        } catch (IOException e) {
            deleteQuietly(file);
            deleteQuietly(madeDir);
            throw new StartupFailure("cannot write the data file in " + (dir == null ? "the temporary directory" : "--data-dir " + dir)
                    + ": " + reason(e));
        }
    }

    private static void write(Path file, int bytes) throws IOException {
        SplittableRandom random = new SplittableRandom();
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int left = bytes; left > 0; left -= block.length) {
                random.nextBytes(block);
                out.write(block, 0, Math.min(block.length, left));
            }
        }
    }

    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NoSuchFileException) return "no such directory";
        if (e instanceof NotDirectoryException) return "not a directory";
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    public Path path() {
        return path;
    }

    public int bytes() {
        return bytes;
    }

    /** Deletes the file (and the temporary directory this made); a file already gone is fine. */
    @Override
    public void close() throws IOException {
        Files.deleteIfExists(path);
        if (madeDir != null) Files.deleteIfExists(madeDir);
    }

    private static void deleteQuietly(Path p) {
        try {
            if (p != null) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // start-up is failing anyway; the message names the directory
        }
    }
}
