package loomylin.server.db;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Who PostgreSQL runs as, and the command prefix that makes it so. PostgreSQL refuses to run as root; a Loomylin
 * run as root (a container, a CI machine) runs it as the unprivileged user {@value #NOBODY} ("nobody") through
 * util-linux's {@code setpriv}, and gives that user the directories it writes. Wherever {@code setpriv} is found
 * the server also gets {@code --pdeathsig KILL}: the kernel kills it when the thread that started it ends, so not
 * even a {@code kill -9} of Loomylin leaves it running.
 */
final class RunAs {
    static final int NOBODY = 65534;

    private RunAs() {
    }

    /** This process's user id, read from the owner of {@code /proc/self}; -1 where there is none. */
    static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    static boolean root() {
        return uid() == 0;
    }

    /** The words to put before a PostgreSQL command: none, or setpriv and its options. */
    static List<String> prefix() {
        Path setpriv = onPath("setpriv");
        List<String> words = new ArrayList<>();
        if (setpriv == null) {
            if (root()) throw new DbStartFailure("PostgreSQL will not run as root and setpriv (util-linux) is not installed: "
                    + "run Loomylin as another user, install util-linux, or give --db-url");
            return words;
        }
        words.add(setpriv.toString());
        if (root()) words.addAll(List.of("--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"));
        words.addAll(List.of("--pdeathsig", "KILL", "--"));
        return words;
    }

    /** Gives {@code path} to the user PostgreSQL runs as (when that is not this one). */
    static void own(Path path) throws IOException {
        if (!root()) return;
        Files.setAttribute(path, "unix:uid", NOBODY);
        Files.setAttribute(path, "unix:gid", NOBODY);
    }

    private static Path onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) return p;
        }
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }
}
