package loomylin.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /** A run whose warm-up ended with the JIT busy (warm false) is left out; one that recorded no warm (a file from before) is not. */
    @Test
    void aColdRunIsLeftOutAndARunThatRecordedNoWarmIsNot() {
        List<Run> runs = new java.util.ArrayList<>(List.of(run(1, 1, true, false, false), run(1, 2, true, false, false), run(2, 1, true, false, false)));
        java.util.Map<String, String> cold = new java.util.HashMap<>(run(2, 2, true, false, false).row());
        cold.put("warm", "false");
        runs.add(new Run(cold));
        java.util.Map<String, String> warm = new java.util.HashMap<>(run(2, 3, true, false, false).row());
        warm.put("warm", "true");
        runs.add(new Run(warm));
        assertEquals(List.of(runs.get(0), runs.get(1), runs.get(2), runs.get(4)), FrontPageBullets.deciding(runs, "cell"));
        assertEquals("1 cold of 5 runs", Run.marks(runs));
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
    void onTheFrontPageAFileOfOneInvocationDecidesNothing() {
        List<Run> clean = List.of(run(1, 1, true, false, false), run(1, 2, true, false, false), run(1, 3, true, false, false));
        FrontPageBullets.STRICT.set(true);
        try {
            assertThrows(FrontPageBullets.Missing.class, () -> FrontPageBullets.deciding(clean, "cell"));
        } finally {
            FrontPageBullets.STRICT.remove();
        }
        assertEquals(clean, FrontPageBullets.deciding(clean, "cell"));
    }

    /** The front page's bullets, from the committed files: decided readings only, no bookkeeping; the full list keeps it. */
    @Test
    void theFrontPagePrintsNoBookkeeping() {
        Page readme = new Page(java.nio.file.Path.of("README.md"), new ResultFiles(java.nio.file.Path.of(".")));
        String front = new FrontPageBullets().render(readme, List.of("front"));
        for (String bookkeeping : List.of("not quoted", "no figure quoted", "runs marked", "invocation", "sketch", "one run"))
            assertFalse(front.contains(bookkeeping), "the front page's bullets say \"" + bookkeeping + "\": " + front);
        java.util.regex.Matcher dflt = java.util.regex.Pattern.compile("Jetty's default[^`]*`([^`]+)`").matcher(front);
        assertTrue(dflt.find(), "the front page compares with Jetty's default pool: " + front);
        do assertEquals("qtp:8-200", dflt.group(1), "Jetty's default is new QueuedThreadPool(), 8 threads growing to 200, not a pre-started qtp:200: " + front);
        while (dflt.find());
        Page results = new Page(java.nio.file.Path.of("docs/results/figures.md"), new ResultFiles(java.nio.file.Path.of(".")));
        assertTrue(new FrontPageBullets().render(results, List.of("all")).contains("a sketch"), "the full list labels its sketches");
        assertThrows(IllegalArgumentException.class, () -> new FrontPageBullets().render(readme, List.of()));
    }

    @Test
    void aFileOfOneInvocationIsQuotedOnlyWhenEveryRunDecides() {
        List<Run> clean = List.of(run(1, 1, true, false, false), run(1, 2, true, false, false));
        assertEquals(clean, FrontPageBullets.deciding(clean, "cell"));
        List<Run> oneMarked = List.of(run(1, 1, true, false, false), run(1, 2, true, false, true));
        assertTrue(assertThrows(FrontPageBullets.Missing.class, () -> FrontPageBullets.deciding(oneMarked, "cell")).getMessage().contains("1 client-limited"));
    }

    /** An admission or bound run its CPU split marked (client-limited, machine full) is not quoted; one from before the split is not marked. */
    @Test
    void aRunItsCpuSplitMarkedIsNotQuotedAndOneFromBeforeTheSplitIs() {
        assertTrue(FrontPageBullets.splitMarked(Map.of("client_limited", "false", "machine_full", "true")));
        assertTrue(FrontPageBullets.splitMarked(Map.of("client_limited", "true", "machine_full", "false")));
        assertFalse(FrontPageBullets.splitMarked(Map.of("client_limited", "false", "machine_full", "false")));
        assertFalse(FrontPageBullets.splitMarked(Map.of("pool", "loom")), "not recorded: not marked");
        Map<String, String> full = Map.of("load", "cpu", "pool", "loom", "max_in_flight", "0", "rps", "0.2", "machine_full", "true");
        Map<String, String> clean = Map.of("load", "cpu", "pool", "loom", "max_in_flight", "0", "rps", "9.5", "machine_full", "false");
        assertEquals("9.5", FrontPageBullets.boundCell(List.of(full, clean), "loom", false, "bound.csv").get("rps"));
        assertThrows(FrontPageBullets.Missing.class, () -> FrontPageBullets.boundCell(List.of(full), "loom", false, "bound.csv"));
    }
}
