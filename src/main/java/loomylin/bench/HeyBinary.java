package loomylin.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import loomylin.cli.UsageError;

/** Where hey is: the --hey path, or the first {@code hey} on PATH. Missing hey is a usage error with install hints. */
final class HeyBinary {
    private HeyBinary() {
    }

    static final String INSTALL_HINTS = "install it with one of: apt install hey | go install github.com/rakyll/hey@latest | brew install hey"
            + " (or pass --hey PATH)";

    static Path locate(Path given, String pathEnv) {
        if (given != null) {
            if (Files.isRegularFile(given) && Files.isExecutable(given)) return given.toAbsolutePath();
            throw new UsageError("--hey " + given + " is not an executable file; " + INSTALL_HINTS);
        }
        for (String dir : (pathEnv == null ? "" : pathEnv).split(File.pathSeparator)) {
            if (dir.isBlank()) continue;
            Path candidate = Path.of(dir, "hey");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return candidate.toAbsolutePath();
        }
        throw new UsageError("the bench drives load with hey, which is not on PATH; " + INSTALL_HINTS);
    }

    /** hey has no --version; a packaged hey's version comes from the package manager, else "unknown". */
    static String version(Path hey) {
        String fromDpkg = Commands.firstLine(List.of("dpkg-query", "-W", "-f=${Version}", "hey"));
        return fromDpkg.isEmpty() ? "unknown (" + hey + ")" : fromDpkg + " (Debian package; " + hey + ")";
    }
}
