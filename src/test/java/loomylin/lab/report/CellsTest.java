package loomylin.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import loomylin.server.cli.Csv;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CellsTest {
    static Run run(String pool, int repeat, double rps) {
        return new Run(Map.of("pool", pool, "endpoint", "e", "concurrency", "50", "mode", "closed", "repeat", String.valueOf(repeat), "rps", String.valueOf(rps)));
    }

    @Test
    void ratiosAreTakenPerRepeatNotOfMedians() {
        List<Run> a = List.of(run("a", 1, 100), run("a", 2, 200), run("a", 3, 300));
        List<Run> b = List.of(run("b", 1, 100), run("b", 2, 100), run("b", 3, 600));
        Stats s = Cells.ratio(a, b, "rps").orElseThrow();
        assertEquals(new Stats(1.0, 0.5, 2.0, 3), s);
        assertEquals("1.000x (0.500-2.000)", Fmt.ratioRange(s));
    }

    static Run run(String pool, int invocation, int repeat, double rps) {
        return new Run(Map.of("pool", pool, "endpoint", "e", "concurrency", "50", "mode", "closed", "invocation", String.valueOf(invocation),
                "repeat", String.valueOf(repeat), "rps", String.valueOf(rps)));
    }

    @Test
    void ratiosPairTheRunBesideInTheSameInvocation() {
        // Repeat 1 of invocation 2 must meet repeat 1 of invocation 2, not the last repeat 1 read.
        List<Run> a = List.of(run("a", 1, 1, 100), run("a", 2, 1, 400));
        List<Run> b = List.of(run("b", 1, 1, 100), run("b", 2, 1, 200));
        Stats s = Cells.ratio(a, b, "rps").orElseThrow();
        assertEquals(new Stats(1.5, 1.0, 2.0, 2), s);
        assertEquals(List.of(1, 2), Cells.closed(List.of(b.get(1), b.get(0)), "b", "e", 50).stream().map(Run::invocation).toList());
    }

    @Test
    void targetsShowEachInvocationsMedianWrittenLikeTheMedian() {
        assertEquals("0.950 / 1.010", TargetsTable.invocations(Map.of("median", "0.98", "invocation_medians", "0.9500;1.0100")));
        assertEquals("1,262 / 900", TargetsTable.invocations(Map.of("median", "1100", "invocation_medians", "1262.25;900.0")));
        assertEquals("one", TargetsTable.invocations(Map.of("median", "0.98", "invocation_medians", "0.9800")));
        assertEquals("one", TargetsTable.invocations(Map.of("median", "0.98")));
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, Stats.of(List.of(4.0, 1.0, 3.0, 2.0)).median());
    }

    @Test
    void csvFieldsMayBeQuoted() {
        assertEquals(List.of(Map.of("a", "x, y", "b", "say \"hi\"")), Csv.parse("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n"));
    }

    @Test
    void numbersReadAsTheDocsWriteThem() {
        assertEquals("12,322", Fmt.rate(12322.29));
        assertEquals("18.5", Fmt.rate(18.5));
        assertEquals("0.118", Fmt.cpu(0.118));
        assertEquals("0.52", Fmt.cpu(0.5200));
        assertEquals("1.65", Fmt.cpu(1.6523));
        assertEquals("0.999", Fmt.ratio(0.9992));
        assertEquals("1.29", Fmt.ratio(1.2906));
        assertEquals("27", Fmt.count(27));
    }
}
