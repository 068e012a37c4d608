package loomylin.lab.engine.run;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.server.cli.StartupFailure;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.json.Json;

/**
 * A Loomylin JVM the bench starts: one server on one pool, or the backend. It runs the same java and class
 * path as the bench itself (the jar, or target/classes and the dependencies under Maven), listens on
 * loopback only, and writes its output to a log in the bench's output directory.
 */
public final class ServerProcess implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    /**
     * JVM options that let a flight recording charge an execution sample to the method it ran in: without them the
     * JIT keeps debug information only at safepoints, and a sample goes to the nearest frame that has it.
     */
    public static final List<String> PRECISE_PROFILE = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final int port;
    private final Path log;
    private final long logStart;

    private ServerProcess(String name, Process process, int port, Path log, long logStart) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.log = log;
        this.logStart = logStart;
    }

    /**
     * A server on one pool; /hops-* call {@code backend}. Stopping gives in-flight requests 1 s, not the default 5.
     * No admin port: the bench reads the server from /proc, and a measured JVM should serve nothing else.
     */
    public static ServerProcess server(String pool, String twin, String heap, int port, URI backend, HopClientKind hopClient, Path log) throws IOException {
        return server(List.of(), pool, twin, heap, port, backend, hopClient, log);
    }

    /** The same, its JVM started under {@code launcher} (for example {@code taskset -c 1}: see {@link CpuSets#prefix}). */
    public static ServerProcess server(List<String> launcher, String pool, String twin, String heap, int port, URI backend, HopClientKind hopClient,
                                       Path log) throws IOException {
        return server(launcher, pool, twin, heap, port, backend, hopClient, log, List.of());
    }

    /** The same, with more server flags after the bench's own (a later flag wins): an in-flight limit, an admin port. */
    public static ServerProcess server(List<String> launcher, String pool, String twin, String heap, int port, URI backend, HopClientKind hopClient,
                                       Path log, List<String> moreFlags) throws IOException {
        return server(launcher, pool, twin, heap, port, backend, hopClient, log, moreFlags, List.of());
    }

    /** The same, with more JVM options after the bench's own (for example {@link #PRECISE_PROFILE}). */
    public static ServerProcess server(List<String> launcher, String pool, String twin, String heap, int port, URI backend, HopClientKind hopClient,
                                       Path log, List<String> moreFlags, List<String> moreJvm) throws IOException {
        List<String> jvm = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+AlwaysPreTouch"));
        jvm.addAll(moreJvm);
        List<String> args = new ArrayList<>(List.of("--twin", twin, "--pools", pool, "--host", HOST, "--port", Integer.toString(port),
                "--backend", backend.toString(), "--hop-client", hopClient.label(), "--accept-queue", "4096", "--grace-ms", "1000", "--admin-port", "0"));
        args.addAll(moreFlags);
        return start(launcher, "server " + pool, jvm, args, port, log);
    }

    /**
     * A bare server ({@code loomylin bare-jetty}) answering every request {@code 200 ok} on {@code pool}, without
     * any of Loomylin's handlers: a Jetty Handler ({@code javalin} false) or a Javalin route ({@code javalin} true), behind
     * Jetty's connector or ({@code loomylinConnector}) a Loomylin server's;
     * the floor a Loomylin server stands on.
     */
    public static ServerProcess bare(String pool, boolean javalin, boolean loomylinConnector, String heap, int port, Path log, List<String> moreJvm)
            throws IOException {
        List<String> jvm = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+AlwaysPreTouch"));
        jvm.addAll(moreJvm);
        List<String> args = List.of("bare-jetty", "--pool", pool, "--framework", javalin ? "javalin" : "none", "--connector",
                loomylinConnector ? "loomylin" : "jetty", "--host", HOST, "--port", Integer.toString(port), "--accept-queue", "4096");
        return start(List.of(), (javalin ? "bare javalin " : "bare jetty ") + pool + (loomylinConnector ? " on Loomylin's connector" : ""), jvm, args, port, log);
    }

    /**
     * The servers as a user starts them ({@code java -jar loomylin.jar --host 127.0.0.1 --port PORT FLAGS}): every server
     * of {@code flags} in one JVM on consecutive ports from {@code port}, the embedded backend after them unless
     * {@code flags} name another, with exactly {@code jvm} as its JVM options; {@code launcher} as in
     * {@link #server(List, String, String, String, int, URI, HopClientKind, Path)}. The soak and slow-clients commands
     * run these, because what they judge is the servers' own default set-up, signals and logging included.
     */
    public static ServerProcess servers(List<String> launcher, List<String> jvm, int port, List<String> flags, Path log) throws IOException {
        List<String> args = new ArrayList<>(List.of("--host", HOST, "--port", Integer.toString(port)));
        args.addAll(flags);
        return start(launcher, "servers", jvm, args, port, log);
    }

    public static ServerProcess backend(int port, int delayMs, Path log) throws IOException {
        return backend(List.of(), port, delayMs, log);
    }

    /**
     * A backend on a free port, answering {@code readyPath} once started; if another process takes the port
     * before it binds, another port, three tries in all.
     */
    public static ServerProcess startedBackend(List<String> launcher, int delayMs, Path log, String readyPath) throws IOException {
        for (int attempt = 1; ; attempt++) {
            ServerProcess backend = backend(launcher, FreePort.pick(), delayMs, log);
            try {
                backend.awaitReady(readyPath);
                return backend;
            } catch (StartupFailure e) {
                backend.close();
                if (!backend.portTaken() || attempt == 3) throw e;
            }
        }
    }

    public static ServerProcess backend(List<String> launcher, int port, int delayMs, Path log) throws IOException {
        List<String> args = List.of("backend", "--host", HOST, "--port", Integer.toString(port), "--delay", Integer.toString(delayMs));
        return start(launcher, "backend", List.of("-Xms512m", "-Xmx512m"), args, port, log);
    }

    private static ServerProcess start(List<String> launcher, String name, List<String> jvmOptions, List<String> args, int port, Path log) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.add(java());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("loomylin.Main");
        command.addAll(args);
        return command(name, command, port, log);
    }

    /**
     * Any command as a server the bench measures, for example a user's own application under the agent
     * ({@code advise --app}): run exactly as given (no shell), expected to listen on {@code port}, its output
     * appended to {@code log}, its pid the process measured. Named {@code name} in its failures.
     */
    public static ServerProcess command(String name, List<String> command, int port, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // The child reads only the flags given here: LOOMYLIN_* variables meant for the bench (or left over in
        // the shell) would otherwise change its pools, limits or twin.
        builder.environment().keySet().removeIf(k -> k.startsWith("LOOMYLIN_"));
        long logStart = Files.size(log);
        return new ServerProcess(name, ChildProcesses.start(builder), port, log, logStart);
    }

    /** The java the servers run on: the bench's own (whatever `java` on PATH is), or {@code --java}'s ({@link ServerJava}). */
    public static String java() {
        return ServerJava.current().command();
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    public boolean alive() {
        return process.isAlive();
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://" + HOST + ":" + port + pathAndQuery);
    }

    /**
     * Waits until {@code pathAndQuery} answers 200 and returns the body. If the JVM exits first, fails with
     * the end of its output (a port someone took in the meantime shows up there as "port already in use").
     */
    public String awaitReady(String pathAndQuery) {
        return awaitReady(port, pathAndQuery);
    }

    /** The same on another port of this JVM (one started by {@link #servers} serves several). */
    public String awaitReady(int otherPort, String pathAndQuery) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive())
                throw new StartupFailure(name + " exited with status " + process.exitValue() + " while starting: " + outputTail());
            String body = get(URI.create("http://" + HOST + ":" + otherPort + pathAndQuery));
            if (body != null) return body;
            sleep(50);
        }
        throw new StartupFailure(name + " did not answer " + pathAndQuery + " within " + START_TIMEOUT.toSeconds() + " s: " + outputTail());
    }

    /** Starts, and checks through /pool that the server runs the pool and twin asked for. */
    public void awaitPool(String pool, String twin) {
        String body = awaitReady("/pool");
        Map<?, ?> figures = Json.parse(body) instanceof Map<?, ?> m ? m : Map.of();
        if (!pool.equals(figures.get("kind")) || !twin.equals(figures.get("twin")))
            throw new StartupFailure(name + " reports pool '" + figures.get("kind") + "' of the " + figures.get("twin")
                    + " twin, expected '" + pool + "' of the " + twin + " twin");
    }

    private static String get(URI uri) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) uri.toURL().openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(5000);
            c.setRequestProperty("Connection", "close");
            if (c.getResponseCode() != 200) return null;
            try (InputStream in = c.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            return null; // not listening yet
        } finally {
            if (c != null) c.disconnect();
        }
    }

    /** Everything this process wrote to the log so far (the log holds other processes' output before it). */
    public String output() throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) Math.min(logStart, all.length), (int) Math.max(0, all.length - logStart), StandardCharsets.UTF_8);
    }

    /** The last lines this JVM wrote to the log, on one line. */
    public String outputTail() {
        try {
            String mine = output().strip();
            String[] lines = mine.split("\n");
            String tail = String.join(" | ", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 3), lines.length));
            return tail.isEmpty() ? "(no output; see " + log + ")" : tail;
        } catch (IOException e) {
            return "(output unreadable: " + e.getMessage() + ")";
        }
    }

    public boolean portTaken() {
        return !process.isAlive() && outputTail().contains("port already in use");
    }

    /**
     * SIGTERM, then the JVM's exit status if it exits within {@code grace}; empty if it was still running then, and
     * it is killed. For a command that judges the stop itself; {@link #close} only makes sure the JVM ends.
     */
    public OptionalInt terminate(Duration grace) {
        process.destroy();
        boolean exited = ChildProcesses.waitFor(process, grace);
        ChildProcesses.stop(process, Duration.ZERO);
        return exited ? OptionalInt.of(process.exitValue()) : OptionalInt.empty();
    }

    @Override
    public void close() {
        ChildProcesses.stop(process, STOP_GRACE);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("interrupted");
        }
    }
}
