package loomylin.lab.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import loomylin.lab.engine.measure.Percentiles;

/** hey's per-request CSV, as recorded from hey 0.1.4 against a Loomylin server. */
class HeyCsvTest {

    private static HeyCsv.Responses recorded(String name) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                HeyCsvTest.class.getResourceAsStream("/bench/" + name), StandardCharsets.UTF_8))) {
            return HeyCsv.parse(in);
        }
    }

    private static HeyCsv.Responses text(String csv) throws IOException {
        return HeyCsv.parse(new BufferedReader(new StringReader(csv)));
    }

    @Test
    void twentyOkResponsesGiveExactPercentiles() throws IOException {
        // hey -n 20 -c 4 -o csv /wait-blocking?ms=20
        HeyCsv.Responses r = recorded("hey-ok.csv");
        assertEquals(20, r.count());
        assertEquals(20, r.ok());
        assertEquals(27.9, r.percentileMs(50), 1e-9);
        assertEquals(94.3, r.percentileMs(90), 1e-9);
        assertEquals(102.5, r.percentileMs(99), 1e-9);
        assertEquals(102.5, loomylin.lab.engine.measure.Measured.Latency.of(r.latenciesMs()).maxMs(), 1e-9);
        assertEquals(0.2181, r.spanS(), 1e-9); // first start (offset 0.0002) to last end
    }

    @Test
    void errorStatusesAreRowsButNotOk() throws IOException {
        // hey -n 6 -c 2 -o csv /hops-blocking with no backend: every answer is 502
        HeyCsv.Responses r = recorded("hey-502.csv");
        assertEquals(6, r.count());
        assertEquals(0, r.ok());
    }

    @Test
    void refusedConnectionsLeaveOnlyTheHeader() throws IOException {
        // hey -n 4 -c 2 -o csv against a port nobody listens on: exit status 0, no rows, nothing on stderr
        HeyCsv.Responses r = recorded("hey-refused.csv");
        assertEquals(0, r.count());
        assertEquals(0, r.ok());
        assertEquals(0, r.spanS());
        assertTrue(Double.isNaN(r.percentileMs(99)));
    }

    @Test
    void unexpectedOutputIsRejected() {
        assertThrows(HeyCsv.Malformed.class, () -> text(""));
        assertThrows(HeyCsv.Malformed.class, () -> text("Summary:\n  Total: 1.0 secs\n"));
        assertThrows(HeyCsv.Malformed.class, () -> text(HeyCsv.HEADER + "\n0.1,0.0,0.0,0.0,0.1,0.0,200\n"));
        assertThrows(HeyCsv.Malformed.class, () -> text(HeyCsv.HEADER + "\n0.1,0.0,0.0,0.0,0.1,0.0,OK,0.0\n"));
    }

    @Test
    void percentilesAreNearestRank() {
        double[] tenths = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, Percentiles.of(tenths, 50));
        assertEquals(9, Percentiles.of(tenths, 90));
        assertEquals(10, Percentiles.of(tenths, 99));
        assertEquals(10, Percentiles.of(tenths, 100));
        assertEquals(1, Percentiles.of(tenths, 0));
        assertEquals(7, Percentiles.of(new double[] {7}, 99));
        assertTrue(Double.isNaN(Percentiles.of(new double[0], 50)));
    }
}
