package loomylin.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * External tools a test needs (hey, oha, chromium, podman, ...). On a machine without one, the test is skipped
 * by a JUnit assumption whose message is one line naming the tool and its install command; CI installs every
 * tool and fails on any skip ({@code .ci/run}), and {@link SkippedTestsReport} lists the skips at the end of
 * the build. A test that needs one is an {@link IntegrationTest}; in the unit run, looking one up fails the test.
 */
public final class Tools {
    private Tools() {
    }

    /** The executable called {@code name} in a directory of the PATH this JVM was started with, if any. */
    public static Optional<Path> find(String name) {
        UnitRunGuard.refuse("the external tool " + name);
        String path = System.getenv("PATH");
        if (path == null) return Optional.empty();
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return Optional.of(candidate);
        }
        return Optional.empty();
    }

    public static boolean onPath(String name) {
        return find(name).isPresent();
    }

    /**
     * Skips the calling test unless {@code name} is on the PATH, with the message
     * {@code needs <name>: <install>}, e.g. {@code Tools.assumeOnPath("hey", "apt-get install hey")}.
     */
    public static Path assumeOnPath(String name, String install) {
        Optional<Path> found = find(name);
        assumeTrue(found.isPresent(), () -> "needs " + name + ": " + install);
        return found.orElseThrow();
    }
}
