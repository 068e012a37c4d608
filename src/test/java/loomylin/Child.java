package loomylin;

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
 * {@code java -jar loomylin.jar ...} as a user runs it, but from the test classpath: a real child JVM
 * whose exit status and output the CLI tests read. Always killed by {@link #close()}.
 */
public final class Child implements AutoCloseable {
    public final Process process;
    private final Path output;

    private Child(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    public static Child start(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("loomylin.Main");
        command.addAll(List.of(args));
        Path output = Files.createTempFile("loomylin-child", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("LOOMYLIN_"));
        return new Child(pb.start(), output);
    }

    /** Waits for the exit status, at most {@code limit}. */
    public int exit(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS))
            throw new AssertionError("still running after " + limit + ": " + output());
        return process.exitValue();
    }

    public String output() {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "<" + e + ">";
        }
    }

    /** Waits until the output contains {@code text}. */
    public void awaitOutput(String text, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!output().contains(text)) {
            if (!process.isAlive()) throw new AssertionError("exited " + process.exitValue() + " before '" + text + "': " + output());
            if (System.nanoTime() > deadline) throw new AssertionError("no '" + text + "' after " + limit + ": " + output());
            Thread.sleep(50);
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws Exception {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        Files.deleteIfExists(output);
    }
}
