package loomylin.bench.load;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import loomylin.bench.measure.Measured;
import loomylin.bench.measure.ProcSampler;
import loomylin.json.Json;

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
     * oha's {@code --output-format json}: {@code statusCodeDistribution} counts answers by status,
     * {@code latencyPercentiles} and {@code summary.slowest} are in seconds (null without answers).
     */
    public static Measured parse(String json, long sent, double wallS, double cpuS) {
        if (!(Json.parse(json.strip()) instanceof Map<?, ?> doc)) throw new IllegalArgumentException("oha's JSON is not an object");
        long answered = 0;
        long ok = 0;
        if (doc.get("statusCodeDistribution") instanceof Map<?, ?> codes) {
            for (Map.Entry<?, ?> e : codes.entrySet()) {
                long n = ((Number) e.getValue()).longValue();
                answered += n;
                if (String.valueOf(e.getKey()).startsWith("2")) ok += n;
            }
        } else {
            throw new IllegalArgumentException("oha's JSON has no statusCodeDistribution");
        }
        Map<?, ?> p = doc.get("latencyPercentiles") instanceof Map<?, ?> m ? m : Map.of();
        Map<?, ?> summary = doc.get("summary") instanceof Map<?, ?> m ? m : Map.of();
        Measured.Latency latency = answered == 0 ? Measured.Latency.NONE
                : new Measured.Latency(ms(p.get("p50")), ms(p.get("p90")), ms(p.get("p99")), ms(p.get("p99.9")), ms(summary.get("slowest")));
        return new Measured(sent, answered, ok, latency, wallS, cpuS);
    }

    private static double ms(Object seconds) {
        return seconds instanceof Number n ? n.doubleValue() * 1000 : Double.NaN;
    }
}
