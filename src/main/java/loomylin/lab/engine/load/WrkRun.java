package loomylin.lab.engine.load;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.ProcSampler;

/**
 * Runs wrk, closed-loop, for a fixed time: a C client that drives thousands of connections from two threads
 * (hey, at 2000 connections, measured itself more than the server). Its Lua {@code done()} hook prints the
 * counts and percentiles of wrk's HdrHistogram on one line, which {@link #parse} reads.
 */
public final class WrkRun {
    private WrkRun() {
    }

    public static final String MARK = "loomylin-wrk ";

    public static Measured measure(Path wrk, URI url, int seconds, int concurrency, int timeoutS, int threads, ProcSampler sampler) throws IOException {
        return measure(List.of(), wrk, url, seconds, concurrency, timeoutS, threads, sampler);
    }

    /** The same, wrk started under {@code launcher} ({@link ClientProcess#run(List, List, Path, Duration, ProcSampler, String)}). */
    public static Measured measure(List<String> launcher, Path wrk, URI url, int seconds, int concurrency, int timeoutS, int threads, ProcSampler sampler)
            throws IOException {
        Path script = Files.createTempFile("loomylin-wrk-", ".lua");
        Path out = Files.createTempFile("loomylin-wrk-", ".out");
        try (InputStream lua = WrkRun.class.getResourceAsStream("wrk-done.lua")) {
            Files.write(script, lua.readAllBytes());
            List<String> command = List.of(wrk.toString(), "-t", Integer.toString(Math.min(threads, concurrency)),
                    "-c", Integer.toString(concurrency), "-d", seconds + "s", "--timeout", timeoutS + "s", "-s", script.toString(), url.toString());
            ClientProcess.Finished f = ClientProcess.run(launcher, command, out, Duration.ofSeconds(60 + seconds + 2L * timeoutS), sampler, "wrk");
            return parse(Files.readString(out, StandardCharsets.UTF_8), f.wallS(), f.cpuS());
        } finally {
            Files.deleteIfExists(script);
            Files.deleteIfExists(out);
        }
    }

    /** wrk's output with the done() line; wrk counts answers of any status as requests, errors.status are the non-2xx/3xx. */
    public static Measured parse(String output, double wallS, double cpuS) {
        String line = output.lines().filter(l -> l.startsWith(MARK)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("wrk printed no '" + MARK.strip() + "' line: " + abbreviate(output)));
        Map<String, Long> f = new HashMap<>();
        for (String pair : line.substring(MARK.length()).trim().split("\\s+")) {
            String[] kv = pair.split("=", 2);
            if (kv.length != 2 || !kv[1].matches("\\d{1,18}")) throw new IllegalArgumentException("unreadable wrk line: " + abbreviate(line));
            f.put(kv[0], Long.parseLong(kv[1]));
        }
        for (String k : List.of("requests", "connect", "read", "write", "status", "timeout", "p50_us", "p90_us", "p99_us", "p999_us", "max_us"))
            if (!f.containsKey(k)) throw new IllegalArgumentException("wrk line lacks " + k + ": " + abbreviate(line));
        long answered = f.get("requests");
        long ok = Math.max(0, answered - f.get("status"));
        long noAnswer = f.get("connect") + f.get("read") + f.get("write") + f.get("timeout");
        Measured.Latency latency = answered == 0 ? Measured.Latency.NONE : new Measured.Latency(ms(f, "p50_us"), ms(f, "p90_us"),
                ms(f, "p99_us"), ms(f, "p999_us"), ms(f, "max_us"));
        double meanMs = answered == 0 || !f.containsKey("mean_us") ? Double.NaN : ms(f, "mean_us");
        return new Measured(answered + noAnswer, answered, ok, latency, wallS, cpuS, meanMs);
    }

    private static double ms(Map<String, Long> f, String key) {
        return f.get(key) / 1000.0;
    }

    private static String abbreviate(String s) {
        String one = s.strip().replace('\n', ' ');
        return one.length() > 200 ? one.substring(0, 200) + "..." : one;
    }
}
