package loomylin.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The strict reader of the Prometheus text format, on a /metrics page recorded from a Loomylin admin port
 * (servers qtp:4 on 35861, qtp:32 on 40481, loom on 46171; three requests served by loom), and on malformed lines.
 */
class PrometheusTextTest {
    static String recorded() throws IOException {
        try (InputStream in = PrometheusTextTest.class.getResourceAsStream("/bench/metrics.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsEveryLineOfARecordedPage() throws IOException {
        String page = recorded();
        PrometheusText text = PrometheusText.parse(page);
        long sampleLines = page.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
        assertEquals(sampleLines, text.samples().size());
        assertEquals("counter", text.type("process_cpu_seconds_total").orElseThrow());
        assertEquals("histogram", text.type("loomylin_request_duration_seconds").orElseThrow());
        assertEquals(3.0, text.value("loomylin_requests_total", Map.of("port", "46171", "status", "2xx")).orElseThrow());
        assertEquals(0.0, text.value("loomylin_requests_total", Map.of("port", "35861", "status", "5xx")).orElseThrow());
        assertEquals(3.0, text.value("loomylin_request_duration_seconds_bucket", Map.of("port", "46171", "le", "+Inf")).orElseThrow());
        assertEquals(2.0, text.value("loomylin_pool_request_limit", Map.of("pool", "qtp:4")).orElseThrow());
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

    @Test
    void readsEscapesSpecialValuesTimestampsAndATrailingComma() {
        PrometheusText text = PrometheusText.parse("""
                # a free comment
                # TYPE odd gauge
                odd{a="x\\"y\\\\z\\n",b="",} -Inf 1700000000000
                odd{a="nan"} NaN
                odd{a="exp"} 1.5e3
                """);
        assertEquals(Map.of("a", "x\"y\\z\n", "b", ""), text.samples().get(0).labels());
        assertEquals(Double.NEGATIVE_INFINITY, text.samples().get(0).value());
        assertTrue(Double.isNaN(text.value("odd", Map.of("a", "nan")).orElseThrow()));
        assertEquals(1500.0, text.value("odd", Map.of("a", "exp")).orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "up", "up 1 2 3", "up abc", "up 1 1.5", "1up 1", "up{a=\"1\"}1", "up{a=1} 1", "up{a=\"1} 1", "up{a=\"1\" b=\"2\"} 1",
            "up{a=\"1\",a=\"2\"} 1", "up{1a=\"x\"} 1", "up{a=\"\\t\"} 1", "up{a=\"1\"", "# TYPE up", "# TYPE up weird", "# HELP",
            "up 0x10", "<html>"})
    void refusesAMalformedLineNamingIt(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PrometheusText.parse("# TYPE ok gauge\nok 1\n" + bad + "\n"));
        assertTrue(e.getMessage().startsWith("line 3: "), e.getMessage());
    }

    @Test
    void refusesASecondTypeForOneFamily() {
        assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse("# TYPE a gauge\n# TYPE a counter\n"));
    }
}
