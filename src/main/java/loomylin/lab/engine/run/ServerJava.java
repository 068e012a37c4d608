package loomylin.lab.engine.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import loomylin.server.cli.UsageError;

/**
 * The {@code java} the measured servers and the backend run on: the bench's own by default, or the one
 * {@code --java PATH} names (another JDK, for example a JDK 21 beside 25), chosen once per command before it
 * starts any server. {@link #describe} names it as provenance does: name, exact version and vendor.
 *
 * @param command the java executable
 * @param version its {@code java.runtime.version}, e.g. 21.0.8+9-LTS
 * @param feature its feature release, e.g. 21
 * @param described name, version and vendor, for provenance and reports
 */
public record ServerJava(String command, String version, int feature, String described) {
    /** The oldest JDK the jar runs on. */
    public static final int MINIMUM = 21;
    private static volatile ServerJava chosen;

    /** The java the servers run on: the one {@link #choose} set, else the bench's own. */
    public static ServerJava current() {
        ServerJava c = chosen;
        return c != null ? c : bench();
    }

    /** The bench's own java. */
    public static ServerJava bench() {
        String command = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return new ServerJava(command, System.getProperty("java.runtime.version"), Runtime.version().feature(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ")");
    }

    /** {@code --java PATH}: checks that it is a java of {@link #MINIMUM} or later (one-line usage error otherwise) and uses it from now on. */
    public static ServerJava choose(String path) {
        ServerJava java = probe(path);
        chosen = java;
        return java;
    }

    /** Runs {@code path -XshowSettings:properties -version} and reads what it is. */
    static ServerJava probe(String path) {
        Path p = Path.of(path);
        if (!Files.isRegularFile(p) || !Files.isExecutable(p)) throw new UsageError("--java " + path + ": no executable file there");
        String out;
        try {
            Process process = new ProcessBuilder(p.toString(), "-XshowSettings:properties", "-version").redirectErrorStream(true).start();
            out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new UsageError("--java " + path + ": it did not say its version within 30 s");
            }
        } catch (IOException e) {
            throw new UsageError("--java " + path + ": could not run it (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UsageError("--java " + path + ": interrupted");
        }
        String version = property(out, "java.runtime.version");
        String spec = property(out, "java.specification.version");
        if (version == null || spec == null || !spec.matches("\\d+")) throw new UsageError("--java " + path + ": not a java (it did not print its version)");
        int feature = Integer.parseInt(spec);
        if (feature < MINIMUM) throw new UsageError("--java " + path + " is Java " + feature + "; the servers need " + MINIMUM + " or later");
        return new ServerJava(p.toString(), version, feature, property(out, "java.vm.name") + " " + version + " (" + property(out, "java.vendor") + ")");
    }

    private static String property(String settings, String name) {
        for (String line : settings.split("\n")) {
            String t = line.strip();
            if (t.startsWith(name + " = ")) return t.substring(name.length() + 3).strip();
        }
        return null;
    }
}
