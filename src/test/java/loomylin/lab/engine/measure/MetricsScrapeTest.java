package loomylin.lab.engine.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The figures the bench takes from a /metrics page recorded from a Loomylin admin port (servers qtp:4 on 35861,
 * qtp:32 on 40481, loom on 46171), and its fallbacks.
 */
class MetricsScrapeTest {
    static String recorded() throws IOException {
        try (InputStream in = MetricsScrapeTest.class.getResourceAsStream("/admin/metrics.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void takesTheServerFiguresTheBenchReports() throws IOException {
        MetricsScrape s = MetricsScrape.of(PrometheusText.parse(recorded()));
        assertEquals(1.96, s.cpuS(), 1e-9);
        assertEquals(138149888L / 1024, s.rssKb());
        assertEquals(9161625600L / 1024, s.vszKb());
        assertEquals(81, s.threads()); // loomylin_os_threads{owner="total"}, not jvm_threads_current (68)
        assertEquals(List.of(46171, 40481, 35861), s.ports());
    }

    @Test
    void withoutLoomylinsOwnThreadCountFallsBackToTheJvmsAndWithoutProcessMetricsRefuses() {
        MetricsScrape s = MetricsScrape.of(PrometheusText.parse("""
                process_cpu_seconds_total 2.5
                process_resident_memory_bytes 1048576
                jvm_threads_current 12
                """));
        assertEquals(12, s.threads());
        assertEquals(-1, s.vszKb());
        assertEquals(List.of(), s.ports());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MetricsScrape.of(PrometheusText.parse("jvm_threads_current 12\n")));
        assertEquals("no process_cpu_seconds_total", e.getMessage());
    }
}
