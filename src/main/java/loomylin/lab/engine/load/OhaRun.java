package loomylin.lab.engine.load;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.server.json.Json;

/**
 * Runs oha open-loop: {@code requests} requests offered at a constant {@code rate} over a fixed number of
 * connections, with {@code --latency-correction}, so that a request's latency counts from when it was due
 * to be sent, not from when a free connection sent it (wrk2's correction of coordinated omission).
 */
public final class OhaRun {
    private OhaRun() {
    }

    public static Measured measure(Path oha, URI url, int requests, int rate, int connections, int timeoutS, ProcSampler sampler) throws IOException {
        return measure(List.of(), oha, url, requests, rate, connections, timeoutS, sampler);
    }

    /** The same, oha started under {@code launcher} ({@link ClientProcess#run(List, List, Path, Duration, ProcSampler, String)}). */
    public static Measured measure(List<String> launcher, Path oha, URI url, int requests, int rate, int connections, int timeoutS, ProcSampler sampler)
            throws IOException {
        Path out = Files.createTempFile("loomylin-oha-", ".json");
        try {
            List<String> command = List.of(oha.toString(), "-n", Integer.toString(requests), "-c", Integer.toString(connections),
                    "-q", Integer.toString(rate), "--latency-correction", "-t", timeoutS + "s", "--no-tui", "--output-format", "json", url.toString());
            Duration bound = Duration.ofSeconds(60 + requests / rate + 2L * timeoutS);
            ClientProcess.Finished f = ClientProcess.run(launcher, command, out, bound, sampler, "oha");
            return parse(Files.readString(out, StandardCharsets.UTF_8), requests, f.wallS(), f.cpuS());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * One oha run with the latency of 2xx answers kept apart ({@code --stats-success-breakdown}): {@code ok} is
     * over the 2xx answers only, {@code deadlineAborts} the requests still running when a {@code -z} window ended
     * (oha aborts them; not a failure of the server), {@code errors} every other request without an answer
     * (timeouts, refused or reset connections).
     */
    public record Split(Measured all, Measured.Latency ok, long deadlineAborts, long errors) {
    }

    /** Open loop: {@code rate} requests a second for {@code window}, over {@code connections} connections, latency from each request's due time. */
    public static Split openSplit(Path oha, URI url, int rate, Duration window, int connections, int timeoutS, ProcSampler sampler) throws IOException {
        int requests = (int) Math.max(1, rate * window.toSeconds());
        return split(List.of(oha.toString(), "-n", Integer.toString(requests), "-c", Integer.toString(connections), "-q", Integer.toString(rate),
                "--latency-correction"), url, requests, Duration.ofSeconds(60 + window.toSeconds() + 2L * timeoutS), timeoutS, sampler);
    }

    /**
     * Open loop for a fixed time: {@code rate} requests a second for {@code window}, over {@code connections}
     * connections, latency from each request's due time; the window ends on time however slow the server is, and
     * the requests still running then are counted apart ({@link Split#deadlineAborts}), so its answers are the
     * answers inside the window.
     */
    public static Split openWindow(Path oha, URI url, int rate, Duration window, int connections, int timeoutS, ProcSampler sampler) throws IOException {
        return split(List.of(oha.toString(), "-z", window.toSeconds() + "s", "-c", Integer.toString(connections), "-q", Integer.toString(rate),
                "--latency-correction"), url, -1, Duration.ofSeconds(60 + window.toSeconds() + 2L * timeoutS), timeoutS, sampler);
    }

    /** Closed loop: {@code connections} clients sending back to back for {@code window}; requests running at its end are aborted. */
    public static Split closedSplit(Path oha, URI url, Duration window, int connections, int timeoutS, ProcSampler sampler) throws IOException {
        return split(List.of(oha.toString(), "-z", window.toSeconds() + "s", "-c", Integer.toString(connections)), url, -1,
                Duration.ofSeconds(60 + window.toSeconds() + 2L * timeoutS), timeoutS, sampler);
    }

    private static Split split(List<String> head, URI url, long requests, Duration bound, int timeoutS, ProcSampler sampler) throws IOException {
        Path out = Files.createTempFile("loomylin-oha-", ".json");
        try {
            List<String> command = new java.util.ArrayList<>(head);
            command.addAll(List.of("-t", timeoutS + "s", "--stats-success-breakdown", "--no-tui", "--output-format", "json", url.toString()));
            ClientProcess.Finished f = ClientProcess.run(List.of(), command, out, bound, sampler, "oha");
            return parseSplit(Files.readString(out, StandardCharsets.UTF_8), requests, f.wallS(), f.cpuS());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** {@link #parse}, plus {@code latencyPercentilesSuccessful} and {@code errorDistribution}; {@code sent} -1 = answers plus errors. */
    public static Split parseSplit(String json, long sent, double wallS, double cpuS) {
        if (!(Json.parse(json.strip()) instanceof Map<?, ?> doc)) throw new IllegalArgumentException("oha's JSON is not an object");
        Map<?, ?> errorDistribution = doc.get("errorDistribution") instanceof Map<?, ?> e ? e : Map.of();
        long aborts = sum(errorDistribution, k -> k.contains("aborted due to deadline"));
        long errors = sum(errorDistribution, k -> !k.contains("aborted due to deadline"));
        Measured all = parse(json, 0, wallS, cpuS);
        long total = sent >= 0 ? sent : all.answered() + errors;
        all = new Measured(total, all.answered(), all.ok(), all.latency(), wallS, cpuS, all.meanMs());
        Map<?, ?> p = doc.get("latencyPercentilesSuccessful") instanceof Map<?, ?> m ? m : Map.of();
        Measured.Latency ok = all.ok() == 0 ? Measured.Latency.NONE
                : new Measured.Latency(ms(p.get("p50")), ms(p.get("p90")), ms(p.get("p99")), ms(p.get("p99.9")), Double.NaN);
        return new Split(all, ok, aborts, errors);
    }

    /** The counts of a distribution (status codes, errors) whose key passes {@code which}. */
    private static long sum(Map<?, ?> distribution, java.util.function.Predicate<String> which) {
        return distribution.entrySet().stream().filter(x -> which.test(String.valueOf(x.getKey())))
                .mapToLong(x -> ((Number) x.getValue()).longValue()).sum();
    }

    /**
     * oha's {@code --output-format json}: {@code statusCodeDistribution} counts answers by status,
     * {@code latencyPercentiles}, {@code summary.slowest} and {@code summary.average} (the mean) are in seconds (null without answers).
     */
    public static Measured parse(String json, long sent, double wallS, double cpuS) {
        if (!(Json.parse(json.strip()) instanceof Map<?, ?> doc)) throw new IllegalArgumentException("oha's JSON is not an object");
        if (!(doc.get("statusCodeDistribution") instanceof Map<?, ?> codes)) throw new IllegalArgumentException("oha's JSON has no statusCodeDistribution");
        long answered = sum(codes, k -> true);
        long ok = sum(codes, k -> k.startsWith("2"));
        Map<?, ?> p = doc.get("latencyPercentiles") instanceof Map<?, ?> m ? m : Map.of();
        Map<?, ?> summary = doc.get("summary") instanceof Map<?, ?> m ? m : Map.of();
        Measured.Latency latency = answered == 0 ? Measured.Latency.NONE
                : new Measured.Latency(ms(p.get("p50")), ms(p.get("p90")), ms(p.get("p99")), ms(p.get("p99.9")), ms(summary.get("slowest")));
        return new Measured(sent, answered, ok, latency, wallS, cpuS, answered == 0 ? Double.NaN : ms(summary.get("average")));
    }

    private static double ms(Object seconds) {
        return seconds instanceof Number n ? n.doubleValue() * 1000 : Double.NaN;
    }
}
