package loomylin.lab.reliability;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import loomylin.lab.engine.Runner;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;

/**
 * One run of a reliability command ({@code soak}, {@code slow-clients}) and its result directory: what it prints goes
 * to stdout and to output.txt, the server JVM it starts logs to servers.log, each check is one line
 * {@code PASS name: detail} or {@code FAIL name: detail}, and the run ends with the engine's provenance.json (the
 * schema every experiment writes) and the last line {@code NAME: N passed, M failed}.
 */
final class ReliabilityRun implements AutoCloseable {
    static final String OUTPUT = "output.txt";
    /** How long a server JVM may take to exit after SIGTERM before the stop counts as failed. */
    static final Duration STOP_BOUND = Duration.ofSeconds(15);

    /** One check's verdict. */
    record Check(boolean passed, String name, String detail) {
        String line() {
            return (passed ? "PASS " : "FAIL ") + name + ": " + detail;
        }
    }

    private final String name;
    private final Path dir;
    private final OutputStream file;
    private final PrintStream out;
    private final Provenance provenance;
    private final long start = System.nanoTime();
    private int passed;
    private int failed;

    private ReliabilityRun(String name, Path dir, OutputStream file, String commandLine) {
        this.name = name;
        this.dir = dir;
        this.file = file;
        this.out = new PrintStream(new Tee(System.out, file), true, StandardCharsets.UTF_8);
        this.provenance = Provenance.collect(commandLine, dir, Map.of(), Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS));
    }

    /** Starts a run into {@code dir}: an empty servers.log and output.txt; a directory it cannot write is a usage error. */
    static ReliabilityRun begin(String name, String commandLine, Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(Runner.SERVERS_LOG), "");
            return new ReliabilityRun(name, dir, Files.newOutputStream(dir.resolve(OUTPUT)), commandLine);
        } catch (IOException e) {
            // A file system error's message is often just the path: its kind says more.
            String why = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getClass().getSimpleName();
            throw new UsageError("cannot write to the result directory " + dir + " (" + why + ")");
        }
    }

    /**
     * The command line as provenance records it: the command's environment variables that are set, then the
     * command and its arguments, as a user would type it again.
     */
    static String commandLine(String command, String[] args, List<Flags.Flag> flags, Map<String, String> env) {
        List<String> words = new ArrayList<>();
        for (Flags.Flag f : flags) {
            String value = env.get(f.env());
            if (value != null && !value.isBlank() && !f.name().equals("help")) words.add(f.env() + "=" + quoted(value.trim()));
        }
        words.add("java -jar loomylin.jar " + command);
        for (String a : args) words.add(quoted(a));
        return String.join(" ", words);
    }

    private static String quoted(String word) {
        return word.matches("[\\w@%+=:,./-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    PrintStream out() {
        return out;
    }

    Path dir() {
        return dir;
    }

    Path log() {
        return dir.resolve(Runner.SERVERS_LOG);
    }

    void check(Check c) {
        out.println(c.line());
        if (c.passed()) passed++;
        else failed++;
    }

    void check(boolean passed, String name, String detail) {
        check(new Check(passed, name, detail));
    }

    /** The server JVM, still running after the load, stops on SIGTERM with exit status 0 within {@link #STOP_BOUND}. */
    void stopsOnSigterm(ServerProcess server) {
        if (!server.alive()) {
            check(false, "sigterm-exit-0", "server already gone");
            return;
        }
        OptionalInt status = server.terminate(STOP_BOUND);
        if (status.isEmpty()) check(false, "sigterm-exit-0", "still running " + STOP_BOUND.toSeconds() + " s after SIGTERM");
        else check(status.getAsInt() == 0, "sigterm-exit-0", "exit status " + status.getAsInt());
    }

    /** Says how many warnings or errors the server logged, and the first five; they are shown, not judged. */
    void reportWarnings() throws IOException {
        List<String> warnings = Files.readAllLines(log(), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList();
        if (warnings.isEmpty()) return;
        out.println(name + ": the server logged " + warnings.size() + " warnings or errors, the first ones:");
        warnings.stream().limit(5).forEach(l -> out.println(name + ": server | " + l));
    }

    /** Writes provenance.json, prints the last line and returns the exit status: 0 when every check passed, else 1. */
    int finish() throws IOException {
        provenance.finishedAfter(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).write(dir);
        out.println(name + ": " + passed + " passed, " + failed + " failed");
        return failed == 0 && passed > 0 ? 0 : 1;
    }

    @Override
    public void close() throws IOException {
        out.flush();
        file.close();
    }

    /** Bytes to stdout and to output.txt alike. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int x) throws IOException {
            a.write(x);
            b.write(x);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }
    }
}
