package loomylin.lab.engine.load;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import loomylin.server.cli.UsageError;

/**
 * Where a load generator is: the path given by its flag (--hey, --wrk, --oha), else the first one on PATH;
 * oha, which cargo installs, is also looked for in ~/.cargo/bin. A missing one is a usage error with
 * the command that installs it.
 */
public final class ClientBinary {
    private ClientBinary() {
    }

    public static Path locate(Client client, Path given, String pathEnv, Path home) {
        String name = client.label();
        String hint = "install it with: " + client.install + " (or pass --" + name + " PATH)";
        if (given != null) {
            if (Files.isRegularFile(given) && Files.isExecutable(given)) return given.toAbsolutePath();
            throw new UsageError("--" + name + " " + given + " is not an executable file; " + hint);
        }
        List<Path> dirs = new ArrayList<>();
        for (String dir : (pathEnv == null ? "" : pathEnv).split(File.pathSeparator)) if (!dir.isBlank()) dirs.add(Path.of(dir));
        if (client == Client.OHA && home != null) dirs.add(home.resolve(".cargo").resolve("bin"));
        for (Path dir : dirs) {
            Path candidate = dir.resolve(name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return candidate.toAbsolutePath();
        }
        throw new UsageError("the bench needs " + name + ", which is not on PATH; " + hint);
    }

    /** {@code given} (a --hey, --wrk or --oha path) or the tool on this process's PATH. */
    public static Path locate(Client client, Path given) {
        return locate(client, given, System.getenv("PATH"), Path.of(System.getProperty("user.home")));
    }

    /** hey has no --version: its version comes from the package manager; wrk and oha print theirs. */
    public static String version(Client client, Path binary) {
        String v = switch (client) {
            case HEY -> {
                String dpkg = Commands.firstLine(List.of("dpkg-query", "-W", "-f=${Version}", "hey"));
                yield dpkg.isEmpty() ? "" : dpkg + " (Debian package)";
            }
            case WRK -> Commands.firstLine(List.of(binary.toString(), "-v"), true); // prints its version, exits 1
            case OHA -> Commands.firstLine(List.of(binary.toString(), "--version"));
        };
        return (v.isEmpty() ? "unknown" : v) + " (" + binary + ")";
    }
}
