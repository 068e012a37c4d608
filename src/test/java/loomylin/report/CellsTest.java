package loomylin.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
