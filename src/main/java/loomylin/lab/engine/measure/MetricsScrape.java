package loomylin.lab.engine.measure;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import loomylin.server.cli.StartupFailure;

/**
 * One scrape of a Loomylin admin port's {@code /metrics}: the server process's figures the bench reports,
 * read from the Prometheus Java client's process metrics and Loomylin's own.
 *
 * @param cpuS    {@code process_cpu_seconds_total}: user + system CPU seconds since the process started
 * @param rssKb   {@code process_resident_memory_bytes}, in KiB
 * @param vszKb   {@code process_virtual_memory_bytes}, in KiB; -1 when absent
 * @param threads OS threads: {@code loomylin_os_threads{owner="total"}}, else {@code jvm_threads_current}
 *                (platform threads); -1 when neither is there
 * @param ports   the server ports this process reports ({@code loomylin_server_info}), in its order
 */
public record MetricsScrape(double cpuS, long rssKb, long vszKb, int threads, List<Integer> ports) {
    /** Scrapes {@code url}; one line naming the URL when it does not answer 200 or is not the expected format. */
    public static MetricsScrape from(URI url) {
        String body = HttpGet.ok("metrics", url);
        try {
            return of(PrometheusText.parse(body));
        } catch (IllegalArgumentException e) {
            throw new StartupFailure("metrics " + url + " is not the Prometheus text format a Loomylin admin port writes: " + e.getMessage());
        }
    }

    /** The figures out of a parsed exposition; IllegalArgumentException when the process metrics are missing. */
    public static MetricsScrape of(PrometheusText text) {
        double cpu = text.value("process_cpu_seconds_total")
                .orElseThrow(() -> new IllegalArgumentException("no process_cpu_seconds_total"));
        double rss = text.value("process_resident_memory_bytes")
                .orElseThrow(() -> new IllegalArgumentException("no process_resident_memory_bytes"));
        long vsz = text.value("process_virtual_memory_bytes").map(b -> (long) (b / 1024)).orElse(-1L);
        Optional<Double> threads = text.value("loomylin_os_threads", Map.of("owner", "total")).or(() -> text.value("jvm_threads_current"));
        List<Integer> ports = text.all("loomylin_server_info").stream()
                .map(s -> s.labels().get("port")).filter(p -> p != null && p.matches("\\d{1,5}")).map(Integer::valueOf).toList();
        return new MetricsScrape(cpu, (long) (rss / 1024), vsz, threads.map(Double::intValue).orElse(-1), ports);
    }
}
