package loomylin.lab.engine.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.ProcSampler;

/** Runs hey: a measured run with a fixed count and per-request CSV, or a warm-up burst of fixed duration. */
public final class HeyRun {
    private HeyRun() {
    }

    public static Measured measure(Path hey, URI url, int requests, int concurrency, int timeoutS, ProcSampler sampler) throws IOException {
        return measure(List.of(), hey, url, requests, concurrency, timeoutS, sampler);
    }

    /** The same, hey started under {@code launcher} ({@link ClientProcess#run(List, List, Path, Duration, ProcSampler, String)}). */
    public static Measured measure(List<String> launcher, Path hey, URI url, int requests, int concurrency, int timeoutS, ProcSampler sampler)
            throws IOException {
        Path csv = Files.createTempFile("loomylin-hey-", ".csv");
        try {
            // Every client's requests in a row, each up to the timeout, and some slack: beyond that hey is stuck.
            Duration bound = Duration.ofSeconds(60 + (long) (requests / concurrency) * (timeoutS + 2));
            ClientProcess.Finished f = ClientProcess.run(launcher, command(hey, List.of("-n", Integer.toString(requests)), concurrency, timeoutS, url),
                    csv, bound, sampler, "hey");
            HeyCsv.Responses r = read(csv);
            Measured.Latency latency = Measured.Latency.of(r.latenciesMs());
            return new Measured(requests, r.count(), r.ok(), latency, f.wallS(), f.cpuS());
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    /**
     * Load for {@code duration} (hey -z): warms the server's JIT, caches and pools. Returns the 2xx answers
     * per second it achieved (first request to last answer), which sizes the measured run and is reported
     * beside it, so that a run still warming up shows.
     */
    public static double warmUp(Path hey, URI url, String duration, int concurrency, int timeoutS) throws IOException {
        return warmUp(List.of(), hey, url, duration, concurrency, timeoutS);
    }

    /** The same, hey started under {@code launcher}. */
    public static double warmUp(List<String> launcher, Path hey, URI url, String duration, int concurrency, int timeoutS) throws IOException {
        Path csv = Files.createTempFile("loomylin-hey-", ".csv");
        try {
            ClientProcess.run(launcher, command(hey, List.of("-z", duration), concurrency, timeoutS, url), csv,
                    Duration.ofSeconds(60 + 2L * timeoutS + seconds(duration)), null, "hey warm-up");
            HeyCsv.Responses r = read(csv);
            return r.spanS() > 0 ? r.ok() / r.spanS() : 0;
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    private static HeyCsv.Responses read(Path csv) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            return HeyCsv.parse(in);
        }
    }

    private static List<String> command(Path hey, List<String> amount, int concurrency, int timeoutS, URI url) {
        List<String> command = new ArrayList<>(List.of(hey.toString()));
        command.addAll(amount);
        command.addAll(List.of("-c", Integer.toString(concurrency), "-t", Integer.toString(timeoutS), "-o", "csv", url.toString()));
        return command;
    }

    private static long seconds(String duration) {
        return duration.endsWith("ms") ? Long.parseLong(duration.substring(0, duration.length() - 2)) / 1000 + 1
                : Long.parseLong(duration.substring(0, duration.length() - 1));
    }
}
