package loomylin.reliability;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Loomylin server in its own JVM ({@code java -cp <test class path> loomylin.Main ...}), for what a test
 * cannot do in-process: signals, kill -9, a low open-files limit. Output goes to a log file the test can
 * read. {@link #close()} always ends the process.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    final Path log;
    final int port;

    private ChildJvm(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** The java that runs this test (JDK 25 under the Maven toolchain), never a hard-coded path. */
    static String java() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Surefire puts the real class path here when java.class.path is only its booter jar. */
    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    /** A port that was free a moment ago. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts {@code loomylin.Main} with the arguments and waits for its "ready" line. One server on
     * {@code port}, bound to loopback, with no embedded backend (port 9, discard, is never called).
     *
     * @param openFiles when not null, the child's {@code ulimit -n}
     */
    static ChildJvm start(String name, int port, Integer openFiles, String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile("loomylin-" + name + "-", ".log");
        List<String> command = new ArrayList<>();
        if (openFiles != null) {
            command.addAll(List.of("bash", "-c", "ulimit -n " + openFiles + " && exec \"$@\"", "bash"));
        }
        command.addAll(List.of(java(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", classPath(), "loomylin.Main",
                "--port", String.valueOf(port), "--host", "127.0.0.1", "--backend", "http://127.0.0.1:9"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ChildJvm child = new ChildJvm(p, log, port);
        try {
            child.awaitLog("ready;", Duration.ofSeconds(60));
        } catch (IOException | RuntimeException e) {
            child.close();
            throw e;
        }
        return child;
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** Lines of the log containing the text. */
    long count(String text) {
        return output().lines().filter(l -> l.contains(text)).count();
    }

    void awaitLog(String text, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (output().contains(text)) return;
            if (!process.isAlive()) throw new IOException("child exited " + process.exitValue() + " before '" + text + "':\n" + output());
            Thread.sleep(50);
        }
        throw new IOException("no '" + text + "' within " + timeout + ":\n" + output());
    }

    /** A value of /proc/PID/status, e.g. "Threads" or "VmRSS" (kB), or -1 where there is no /proc. */
    long procStatus(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid()), "status"))) {
                if (line.startsWith(key + ":")) return Long.parseLong(line.substring(key.length() + 1).trim().split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException e) {
            // no /proc or process gone
        }
        return -1;
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
        } catch (IOException ignored) {
            // a temp file
        }
    }
}
