package loomylin.lab.engine.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The git commit of the checkout the running code was built from, and whether its tracked files differed from
 * that commit. Changes under {@code gfx/results} do not count as dirty: result files change nothing that is
 * measured, and a script that runs several benches in a row writes them between one bench and the next.
 *
 * @param hash  the full commit hash, or "unknown" when the code does not live in a git checkout (or git is missing)
 * @param dirty tracked files (outside gfx/results) differ from the commit
 * @param root  the checkout's top directory, if any: paths inside it are recorded relative to it
 */
public record Commit(String hash, boolean dirty, Optional<Path> root) {
    static final String UNKNOWN = "unknown";
    private static final String RESULTS = "gfx/results";

    /** The checkout holding {@code codeLocation} (target/classes or target/loomylin.jar), read with git. */
    public static Commit of(Path codeLocation) {
        Path dir = codeLocation.toAbsolutePath();
        if (!dir.toFile().isDirectory()) dir = dir.getParent();
        if (dir == null) return new Commit(UNKNOWN, false, Optional.empty());
        Optional<String> top = git(dir, "rev-parse", "--show-toplevel");
        Optional<String> hash = git(dir, "rev-parse", "HEAD");
        if (top.isEmpty() || hash.isEmpty()) return new Commit(UNKNOWN, false, Optional.empty());
        Path root = Path.of(top.get().strip());
        Optional<String> status = git(root, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)" + RESULTS);
        return new Commit(hash.get().strip(), status.map(s -> !s.isBlank()).orElse(true), Optional.of(root));
    }

    /** The commit of the code this class was loaded from. */
    public static Commit ofRunningCode() {
        try {
            return of(Path.of(Commit.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (Exception e) { // no code source (a custom class loader): the commit stays unknown
            return new Commit(UNKNOWN, false, Optional.empty());
        }
    }

    /** {@code path} relative to the checkout when inside it (how docs and reports name result directories), else absolute. */
    public String relative(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return root.map(r -> r.toAbsolutePath().normalize())
                .filter(absolute::startsWith)
                .map(r -> r.relativize(absolute).toString())
                .map(s -> s.isEmpty() ? "." : s)
                .orElse(absolute.toString());
    }

    /** The hash with "-dirty" appended when the tree was dirty: one token for a table cell. */
    public String text() {
        return hash + (dirty ? "-dirty" : "");
    }

    /** git's standard output, or empty when git is missing, fails or takes more than 10 s. */
    private static Optional<String> git(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process p = null;
        try {
            p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            byte[] out = p.getInputStream().readNBytes(1 << 20);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) return Optional.empty();
            return Optional.of(new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (p != null && p.isAlive()) p.destroyForcibly();
        }
    }
}
