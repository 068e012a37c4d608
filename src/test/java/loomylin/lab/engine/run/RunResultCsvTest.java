package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.measure.Measured;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** A results.csv row read back is the row written, its time and load included; a row from before those columns reads them as unknown. */
class RunResultCsvTest {

    /** {@code line} read back under the header, with the named columns left out of the file. */
    static RunResult readBack(String line, String... without) {
        List<String> names = RunResult.TABLE.columnNames();
        List<String> fields = Arrays.asList(line.split(",", -1));
        StringBuilder header = new StringBuilder();
        StringBuilder row = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (List.of(without).contains(names.get(i))) continue;
            header.append(header.isEmpty() ? "" : ",").append(names.get(i));
            row.append(row.isEmpty() ? "" : ",").append(fields.get(i));
        }
        return RunResult.TABLE.parse(header + "\n" + row + "\n").getFirst();
    }

    @Test
    void aRowReadBackWritesTheSameLineWithItsTimeAndLoad() {
        RunSpec spec = new RunSpec(PoolKind.parse("loom"), Endpoint.parse("wait-blocking?ms=10"), 50, 0, Client.WRK, 2);
        RunResult r = new RunResult(spec, "java", 1000, 1000, 1000, 0, 20, 50, 49, new Measured.Latency(10, 11, 12, 13, 14), 2.5, 100_000, 120_000,
                3_000_000, 40, 1.5, 4.0, 6.0, false, 0.1).inInvocation(2)
                .at(new RunResult.When("2026-11-26T19:00:00Z", "2026-11-26T19:00:31Z", "1.25"));
        String line = RunResult.TABLE.line(r);
        List<String> fields = List.of(line.split(",", -1));
        assertEquals(RunResult.TABLE.columnNames().size(), fields.size());
        assertEquals(List.of("2026-11-26T19:00:00Z", "2026-11-26T19:00:31Z", "1.25"), fields.subList(fields.size() - 9, fields.size() - 6));
        assertEquals(line, RunResult.TABLE.line(readBack(line)));
        RunResult older = readBack(line, "started", "ended", "load1", "little_rps", "warmup_little_rps", "warmup_settled");
        assertEquals(RunResult.When.UNKNOWN, older.when());
        assertEquals(RunResult.Settle.NONE, older.settle());

        String withSettle = RunResult.TABLE.line(r.withSettle(new RunResult.Settle(true, 51.2, 50.9)));
        assertEquals(true, withSettle.endsWith(",51.2,50.9,true,,,"), withSettle);
        assertEquals(withSettle, RunResult.TABLE.line(readBack(withSettle)));

        String withJvm = RunResult.TABLE.line(r.withJvm(new loomylin.lab.engine.measure.JvmCpu(2.5, 0.125, 0.0625)));
        assertEquals(true, withJvm.endsWith(",0.125,0.063,"), "the JIT's and the GC's CPU seconds over the window: " + withJvm);
        assertEquals(0.125, readBack(withJvm).jvm().jitS(), 1e-9);
        assertEquals(loomylin.lab.engine.measure.JvmCpu.NONE, readBack(line, "jit_cpu_s", "gc_cpu_s").jvm(), "a run from before reads as not recorded");

        for (boolean warm : List.of(true, false)) {
            String withWarm = RunResult.TABLE.line(r.withSettle(new RunResult.Settle(true, 51.2, 50.9, warm)));
            assertEquals(true, withWarm.endsWith(",51.2,50.9,true,,," + warm), withWarm);
            assertEquals(withWarm, RunResult.TABLE.line(readBack(withWarm)));
            assertEquals(!warm, readBack(withWarm).marks().contains("cold"), withWarm);
        }
    }

    /**
     * A results.csv written before the warm-up read the JIT (gfx/results/full/results.csv among them) has no warm
     * column: its runs read back with warm not recorded, never as cold.
     */
    @Test
    void aResultsCsvFromBeforeTheWarmColumnReadsAsNotRecordedNeverCold() throws java.io.IOException {
        java.nio.file.Path full = java.nio.file.Path.of("gfx", "results", "full", "results.csv");
        List<java.nio.file.Path> files = loomylin.testing.CommittedCsv.named("results.csv");
        assertEquals(true, files.contains(full), "the fixture: " + files);
        for (java.nio.file.Path file : files) {
            if (header(file).contains("warm")) continue;
            List<RunResult> rows = RunResult.TABLE.read(file);
            assertEquals(true, file.equals(full) ? rows.size() > 10 : !rows.isEmpty(), file.toString());
            for (RunResult row : rows) {
                assertEquals(null, row.settle().warm(), file + ": " + row.spec().describe());
                assertEquals(false, row.cold() || row.marks().contains("cold"), file + ": " + row.spec().describe());
            }
        }
        assertEquals(false, header(full).contains("warm"), "full/results.csv is from before the column");
    }

    private static List<String> header(java.nio.file.Path csv) throws java.io.IOException {
        return List.of(java.nio.file.Files.readString(csv).lines().findFirst().orElse("").split(","));
    }

    /** A run timed from the Runner's trial writes its start and load as /proc/loadavg and a run's clock do, so rows read the same whoever timed them. */
    @Test
    void aRunTimedFromItsStartAndLoadWritesThemAsEveryRowDoes() {
        java.time.Instant start = java.time.Instant.parse("2026-11-26T19:00:00.734Z");
        RunResult.When when = RunResult.When.since(start, 1.5);
        assertEquals("2026-11-26T19:00:00Z", when.started(), "to the second, as When.now writes an end");
        assertEquals("1.50", when.load1(), "two decimals, as /proc/loadavg writes it");
        assertEquals(true, java.time.Instant.parse(when.ended()).isAfter(start), when.ended());
        assertEquals("", RunResult.When.since(start, Double.NaN).load1(), "no /proc/loadavg: left empty, as a row from before reads");
    }
}
