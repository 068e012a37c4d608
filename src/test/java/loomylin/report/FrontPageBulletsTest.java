package loomylin.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A bullet quotes a cell only from the runs that decide, and only when enough of them do. */
class FrontPageBulletsTest {
    static Run run(int invocation, int repeat, boolean settled, boolean tooShort, boolean clientLimited) {
        return new Run(Map.of("pool", "qtp:10500", "endpoint", "e", "concurrency", "10000", "mode", "closed", "invocation", String.valueOf(invocation),
                "repeat", String.valueOf(repeat), "rps", "9000", "settled", String.valueOf(settled), "too_short", String.valueOf(tooShort),
                "client_limited", String.valueOf(clientLimited)));
    }

    @Test
    void markedRunsAreLeftOutAndTheRestQuotedWhenThreeDecideFromTwoInvocations() {
        List<Run> runs = List.of(run(1, 1, true, false, false), run(1, 2, false, false, false), run(2, 1, true, false, false), run(2, 2, true, false, false));
        assertEquals(List.of(runs.get(0), runs.get(2), runs.get(3)), FrontPageBullets.deciding(runs, "cell"));
    }

    @Test
    void twoThatDecideOrThreeFromOneInvocationAreNotEnough() {
        List<Run> two = List.of(run(1, 1, true, false, false), run(1, 2, false, false, false), run(2, 1, true, false, false), run(2, 2, false, false, false));
        FrontPageBullets.Missing m = assertThrows(FrontPageBullets.Missing.class, () -> FrontPageBullets.deciding(two, "cell"));
        assertEquals("cell: 2 unsettled of 4 runs marked; 2 decide, from 2 invocations", m.getMessage());
        List<Run> oneInvocation = List.of(run(1, 1, true, false, false), run(1, 2, true, false, false), run(1, 3, true, false, false),
                run(2, 1, false, true, true));
        assertThrows(FrontPageBullets.Missing.class, () -> FrontPageBullets.deciding(oneInvocation, "cell"));
    }

    @Test
    void aFileOfOneInvocationIsQuotedOnlyWhenEveryRunDecides() {
        List<Run> clean = List.of(run(1, 1, true, false, false), run(1, 2, true, false, false));
        assertEquals(clean, FrontPageBullets.deciding(clean, "cell"));
        List<Run> oneMarked = List.of(run(1, 1, true, false, false), run(1, 2, true, false, true));
        assertTrue(assertThrows(FrontPageBullets.Missing.class, () -> FrontPageBullets.deciding(oneMarked, "cell")).getMessage().contains("1 client-limited"));
    }
}
