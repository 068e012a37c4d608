package loomylin.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * {@code java -jar loomylin.jar ARGS} as a user runs it, from the test class path: a real child JVM for what a
 * test cannot do in-process (exit statuses, signals, kill -9, a low open-files limit, environment variables).
 * The child's environment has no {@code LOOMYLIN_*} variable but those the test sets; its output goes to a log
 * file the test reads. {@link #close()} always ends the process. A test that starts one is an
 * {@link IntegrationTest}; in the unit run, starting one fails the test.
 *
 * <pre>
 * try (ChildJvm c = ChildJvm.main("--pools", "loom", "--port", "0").startReady()) { int port = c.serverPorts().get(0); ... }
 * </pre>
 */
public final class ChildJvm implements AutoCloseable {
    /** A server's "port N on KIND: ..." and the backend's "backend on port N" log lines. */
    private static final Pattern SERVER_PORT = Pattern.compile("\\bport (\\d+) on (\\S+):");
    private static final Pattern BACKEND_PORT = Pattern.compile("\\bbackend on port (\\d+)\\b");

    private final Process process;
    private final Path log;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** A child running {@code loomylin.Main} with exactly these arguments, once started. */
    public static Launch main(String... args) {
        return new Launch(List.of(args));
    }

    /**
     * A child serving on loopback with every server on a free port ({@link #serverPorts()} reads them) and no
     * embedded backend (its /hops-* call port 9, discard, and fail); {@code args} come after and win.
     */
    public static Launch servers(String... args) {
        List<String> all = new ArrayList<>(List.of("--host", "127.0.0.1", "--port", "0", "--backend", "http://127.0.0.1:9"));
        all.addAll(List.of(args));
        return new Launch(all);
    }

    /**
     * A child running {@code java ARGS} as a user types it, without the test class path or {@code loomylin.Main}:
     * for example {@code -javaagent:target/loomylin.jar=pool=loom -jar their-app.jar}.
     */
    public static Launch command(String... args) {
        Launch launch = new Launch(List.of(args));
        launch.main = false;
        return launch;
    }

    /** What to start: arguments, environment variables, an open-files limit, the java. */
    public static final class Launch {
        private final List<String> args;
        private final Map<String, String> env = new LinkedHashMap<>();
        private Integer openFiles;
        private boolean main = true;
        private String java;

        private Launch(List<String> args) {
            this.args = args;
        }

        /** Another {@code java} executable than this test's, for example a JDK 21's. */
        public Launch java(String executable) {
            java = executable;
            return this;
        }

        public Launch env(String name, String value) {
            env.put(name, value);
            return this;
        }

        /** The child's {@code ulimit -n}. */
        public Launch openFiles(int limit) {
            openFiles = limit;
            return this;
        }

        /** Starts the child and returns at once. */
        public ChildJvm start() throws IOException {
            UnitRunGuard.refuse("a child JVM (" + (main ? "loomylin.Main " : "java ") + String.join(" ", args) + ")");
            Path log = Files.createTempFile("loomylin-child-", ".log");
            List<String> command = new ArrayList<>();
            if (openFiles != null) command.addAll(List.of("bash", "-c", "ulimit -n " + openFiles + " && exec \"$@\"", "bash"));
            command.addAll(List.of(java != null ? java : ChildJvm.java(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
            if (main) command.addAll(List.of("-cp", classPath(), "loomylin.Main"));
            command.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("LOOMYLIN_"));
            pb.environment().putAll(env);
            return new ChildJvm(pb.start(), log);
        }

        /** Starts the child and waits (at most a minute) for its "ready;" line; a child that never gets there is ended. */
        public ChildJvm startReady() throws IOException {
            ChildJvm child = start();
            try {
                child.awaitOutput("ready;", Duration.ofSeconds(60));
            } catch (RuntimeException | Error e) {
                child.close();
                throw e;
            }
            return child;
        }
    }

    /** The java that runs this test (the toolchain's JDK under Maven), never a hard-coded path. */
    public static String java() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** The test class path: surefire puts the real one here when java.class.path is only its booter jar. */
    public static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    /** Sends a signal by name ("TERM", "INT", "KILL") with kill(1). */
    public void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-s", name, String.valueOf(pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) throw new IOException("kill -s " + name + " " + pid() + " failed");
    }

    /** The child's platform threads and their stacks ({@code jcmd PID Thread.print}, the JDK beside this java). */
    public String threadDump() throws IOException, InterruptedException {
        String jcmd = Path.of(java()).resolveSibling("jcmd").toString();
        Process dump = new ProcessBuilder(jcmd, String.valueOf(pid()), "Thread.print").redirectErrorStream(true).start();
        String threads = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        dump.waitFor();
        return threads;
    }

    /**
     * Every thread of the child, virtual ones included, with its state and stack, as JSON in {@code file}
     * ({@code jcmd PID Thread.dump_to_file -format=json}); returns the file.
     */
    public Path jsonThreadDump(Path file) throws IOException, InterruptedException {
        String jcmd = Path.of(java()).resolveSibling("jcmd").toString();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        Process dump = new ProcessBuilder(jcmd, String.valueOf(pid()), "Thread.dump_to_file", "-format=json", file.toAbsolutePath().toString())
                .redirectErrorStream(true).start();
        String said = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!dump.waitFor(30, TimeUnit.SECONDS) || dump.exitValue() != 0 || !Files.exists(file))
            throw new IOException("jcmd " + pid() + " Thread.dump_to_file failed: " + said.strip());
        return file;
    }

    /**
     * A JSON dump of every thread of the child ({@link #jsonThreadDump}) under {@link Stops#DUMPS}: its path, or why
     * there is none (the child may be gone).
     */
    public String dumpThreads(String label) {
        Path file = Stops.DUMPS.resolve(label.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + pid() + "-" + System.currentTimeMillis() + ".json");
        try {
            return jsonThreadDump(file).toAbsolutePath().toString();
        } catch (IOException e) {
            return "none (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "none (interrupted)";
        }
    }

    /** Everything the child printed so far, stdout and stderr. */
    public String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** How many lines of the output contain the text. */
    public long count(String text) {
        return output().lines().filter(l -> l.contains(text)).count();
    }

    /** Waits until the output contains {@code text}; fails at once, with the output, if the child exits first. */
    public void awaitOutput(String text, Duration limit) {
        try {
            await().atMost(limit).pollInterval(Duration.ofMillis(50)).until(() -> {
                if (output().contains(text)) return true;
                if (!process.isAlive()) throw new AssertionError("exited " + process.exitValue() + " before '" + text + "':\n" + output());
                return false;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no '" + text + "' within " + limit + ":\n" + output(), e);
        }
    }

    /** The exit status, waiting at most {@code limit} for it; fails with the output if the child still runs. */
    public int exit(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS))
            throw new AssertionError("still running after " + limit + ":\n" + output());
        return process.exitValue();
    }

    /** The servers' ports in start order, as their "port N on KIND:" lines say (the real ones with --port 0). */
    public List<Integer> serverPorts() {
        List<Integer> ports = new ArrayList<>();
        Matcher m = SERVER_PORT.matcher(output());
        while (m.find()) ports.add(Integer.parseInt(m.group(1)));
        return ports;
    }

    /** The first server's port. */
    public int port() {
        List<Integer> ports = serverPorts();
        if (ports.isEmpty()) throw new AssertionError("no server port in the output:\n" + output());
        return ports.get(0);
    }

    /** The embedded backend's port, as its "backend on port N" line says. */
    public int backendPort() {
        Matcher m = BACKEND_PORT.matcher(output());
        if (!m.find()) throw new AssertionError("no backend port in the output:\n" + output());
        return Integer.parseInt(m.group(1));
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
