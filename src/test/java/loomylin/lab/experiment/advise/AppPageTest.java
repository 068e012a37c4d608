package loomylin.lab.experiment.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.lab.engine.run.Warmth;
import loomylin.server.cli.Csv;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** advise-app.md from given rows: the verdict against Jetty's default, marks and failures named, the pins and where, and a row through the CSV and back. */
class AppPageTest {
    static final String URL = "http://localhost:8080/wait?ms=50";
    static final List<AppAdvise.Shape> SHAPES = AppAdvise.shapes(PoolKind.qtp(15));

    /** A run that decides, unless {@code settled} is false: 3,000 answers at 200 req/s, {@code cpuMs} per answer, {@code p99Ms}. */
    static AppRow row(int invocation, AppAdvise.Shape shape, double cpuMs, double p99Ms, boolean settled, double pinned, String where) {
        long answers = 3000;
        double cpuS = cpuMs * answers / 1000;
        FixedLoad.Window w = new FixedLoad.Window(3, settled, 12, 200, 15, 15.1, answers, 0, cpuS, 52, p99Ms, p99Ms + 5, 4, 20, false, "", "",
                new Warmth(true, new JvmCpu(cpuS, cpuS / 10, cpuS / 20), "0.9 0.5 0.48", "5 2 1"));
        return new AppRow(invocation, shape.label(), shape.pool(), 1, Instant.parse("2025-01-01T00:00:00Z"), Instant.parse("2025-01-01T00:00:30Z"), 0.5, URL,
                "java -jar their-app.jar 8080", 41.5, 64, 30, 180.5, pinned, pinned / 100, where, w, "");
    }

    static List<AppRow> rows(double loomP99, int invocations) {
        List<AppRow> rows = new ArrayList<>();
        for (int i = 1; i <= invocations; i++) {
            rows.add(row(i, SHAPES.get(0), 0.40, 80, true, 0, ""));
            rows.add(row(i, SHAPES.get(1), 0.41, 78, true, 0, ""));
            rows.add(row(i, SHAPES.get(2), 0.42, loomP99, true, 12, "12 x loomylin.server.agent.EmbeddedJettyApp$1.handle"));
            rows.add(row(i, SHAPES.get(3), 0.43, 79, true, 0, ""));
        }
        return rows;
    }

    @Test
    void aShapeAllBetterThanJettysDefaultIsNamed() {
        String page = AppPage.render(rows(60, 2));
        assertTrue(page.contains("Consider loom (`loom`): p99 60.0 ms against 80.0 ms on Jetty's default (0.75x)"), page);
        for (AppAdvise.Shape s : SHAPES) assertTrue(page.contains("| " + s.label() + " | `" + s.pool() + "` |"), s + " in:\n" + page);
        assertTrue(page.contains("mean latency 41.5 ms at 200 req/s"), "the rule that sized the pool, and what it was sized from:\n" + page);
        assertTrue(page.contains("- loom: up to 12 virtual threads pinned in a run (0.120 s in all), most at: 12 x loomylin.server.agent.EmbeddedJettyApp$1.handle"), page);
        assertTrue(page.contains("- jetty-default: none pinned"), page);
        assertFalse(page.contains("sketch"), "two invocations decide:\n" + page);
    }

    @Test
    void noShapeATenthBetterKeepsTheDefault() {
        String page = AppPage.render(rows(75, 2));
        assertTrue(page.contains("Keep Jetty's default: no other shape had a p99 under 90 % of its 80.0 ms"), page);
    }

    @Test
    void markedAndFailedRunsAreNamedAndLeftOut() {
        List<AppRow> rows = new ArrayList<>(rows(60, 1));
        rows.set(2, row(1, SHAPES.get(2), 0.42, 10, false, 0, ""));
        AppRow ok = rows.get(3);
        rows.set(3, new AppRow(1, ok.shape(), ok.pool(), 1, ok.start(), ok.end(), ok.load1(), URL, ok.app(), ok.probeMeanMs(), ok.connections(), 0, Double.NaN,
                Double.NaN, Double.NaN, "", FixedLoad.Window.none(200), "your application on qtp-vtp:8:200 did not answer /wait within 60 s: boom"));
        String page = AppPage.render(rows);
        assertTrue(page.contains("loom decided nothing (1 run(s): unsettled)"), page);
        assertTrue(page.contains("jetty-preferred decided nothing (1 run(s): failed: your application on qtp-vtp:8:200 did not answer"), page);
        assertTrue(page.contains("| marked: unsettled |"), page);
        assertTrue(page.contains("| jetty-preferred | `qtp-vtp:8:200` | 1 | 1 | failed: "), page);
        assertTrue(page.contains("Keep Jetty's default"), "the unsettled loom's 10 ms p99 decides nothing:\n" + page);
        assertTrue(page.contains("undecided: runs from one invocation") && page.contains("a sketch"), page);
    }

    @Test
    void aRowGoesThroughTheCsvAndBack() {
        AppRow r = row(2, SHAPES.get(2), 0.42, 60, true, 12, "12 x A.b; 3 x C.d");
        String line = AppRow.TABLE.line(r);
        AppRow back = AppRow.TABLE.parse(AppRow.TABLE.header() + "\n" + line + "\n").getFirst();
        assertEquals(line, AppRow.TABLE.line(back));
        assertEquals(AppRow.TABLE.columnNames().size(), Csv.parse(AppRow.TABLE.header() + "\n" + line).getFirst().size(), "one field per column");
    }

    @Test
    void rerenderWritesThePageFromTheCsvAlone(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder(AppRow.TABLE.text(rows(60, 2)));
        Files.writeString(dir.resolve(AppAdvise.CSV), csv);
        ByteArrayOutputStream page = new ByteArrayOutputStream();
        AppPage.rerender(dir, new PrintStream(page, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(Files.readString(dir.resolve(AppAdvise.PAGE)), page.toString(StandardCharsets.UTF_8));
        assertEquals(AppPage.render(rows(60, 2)), Files.readString(dir.resolve(AppAdvise.PAGE)));
        UsageError none = org.junit.jupiter.api.Assertions.assertThrows(UsageError.class,
                () -> AppPage.rerender(dir.resolve("empty"), System.out, System.err));
        assertTrue(none.getMessage().startsWith("no advise-app.csv in "), none.getMessage());
    }
}
