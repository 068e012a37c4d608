package loomylin.lab.engine.measure;

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
        try (InputStream in = PrometheusTextTest.class.getResourceAsStream("/admin/metrics.txt")) {
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
        assertEquals(3.0, text.series("loomylin_request_duration_seconds_count", "port", "46171", "pool", "loom"));
        assertEquals(List.of(), text.untyped());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> text.series("loomylin_requests_total", "port", "46171"));
        assertEquals("no series loomylin_requests_total{port=\"46171\"}", e.getMessage());
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

    @ParameterizedTest
    @ValueSource(strings = {
            "a 1\n# TYPE a gauge\n",                                     // TYPE after the family's samples
            "# TYPE a gauge\na{x=\"1\",y=\"2\"} 1\na{y=\"2\",x=\"1\"} 2\n", // one series twice, labels reordered
            "# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_count 2\nh_sum 1\n", // a bucket decreases
            "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_count 3\nh_sum 1\n", // +Inf is not _count
            "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_count 1\nh_sum 1\n",                          // no +Inf bucket
            "# TYPE h histogram\nh_bucket 1\n",                                                       // a bucket without le
            "# TYPE a gauge\na 1"})                                                                  // no final newline
    void refusesWhatBreaksTheRulesBetweenLines(String bad) {
        assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse(bad));
    }

    @Test
    void untypedSamplesAreAllowedAndListed() {
        PrometheusText text = PrometheusText.parse("# TYPE c counter\nc_total 1\nloose 2\n");
        assertEquals(List.of("loose"), text.untyped());
        assertEquals(Map.of("c", "counter"), text.types());
    }
}
