package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.measure.Measured;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** A results.csv row read back is the row written, its time and load included; a row from before those columns reads them as unknown. */
class RunResultCsvTest {

    static Map<String, String> byName(List<String> fields) {
        Map<String, String> f = new LinkedHashMap<>();
        for (int i = 0; i < RunResult.COLUMNS.size(); i++) f.put(RunResult.COLUMNS.get(i), fields.get(i));
        return f;
    }

    @Test
    void aRowReadBackWritesTheSameLineWithItsTimeAndLoad() {
        RunSpec spec = new RunSpec(PoolKind.parse("loom"), Endpoint.parse("wait-blocking?ms=10"), 50, 0, Client.WRK, 2);
        RunResult r = new RunResult(spec, "java", 1000, 1000, 1000, 0, 20, 50, 49, new Measured.Latency(10, 11, 12, 13, 14), 2.5, 100_000, 120_000,
                3_000_000, 40, 1.5, 4.0, 6.0, false, 0.1).inInvocation(2)
                .at(new RunResult.When("2026-11-26T19:00:00Z", "2026-11-26T19:00:31Z", "1.25"));
        List<String> fields = r.csvFields();
        assertEquals(RunResult.COLUMNS.size(), fields.size());
        assertEquals(List.of("2026-11-26T19:00:00Z", "2026-11-26T19:00:31Z", "1.25"), fields.subList(fields.size() - 6, fields.size() - 3));
        assertEquals(fields, RunResult.fromCsv(byName(fields)).csvFields());
        Map<String, String> older = byName(fields);
        older.keySet().removeAll(List.of("started", "ended", "load1", "little_rps", "warmup_little_rps", "warmup_settled"));
        assertEquals(RunResult.When.UNKNOWN, RunResult.fromCsv(older).when());
        assertEquals(RunResult.Settle.NONE, RunResult.fromCsv(older).settle());

        List<String> withSettle = r.withSettle(new RunResult.Settle(true, 51.2, 50.9)).csvFields();
        assertEquals(List.of("51.2", "50.9", "true"), withSettle.subList(withSettle.size() - 3, withSettle.size()));
        assertEquals(withSettle, RunResult.fromCsv(byName(withSettle)).csvFields());
    }
}
