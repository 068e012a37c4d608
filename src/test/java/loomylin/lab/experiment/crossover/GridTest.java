package loomylin.lab.experiment.crossover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** The crossover's cells, the load each is offered and the pools its sweep tries. */
class GridTest {

    @Test
    void aCellReadsBackFromItsLabelAndAsksMixedForItsWork() {
        for (String label : List.of("cpu1", "sleep5+cpu0.25", "call20+cpu0.25", "none", "sleep50")) assertEquals(label, Grid.Cell.parse(label).label());
        assertEquals("mixed?cpu=300&sleep=20&file=0&calls=1", Grid.Cell.parse("call20+cpu0.25").endpoint(300));
        assertEquals("mixed?cpu=0&sleep=5&file=0", Grid.Cell.parse("sleep5").endpoint(0), "a sleep calls nothing");
        assertEquals("mixed?cpu=0&sleep=0&file=0", Grid.Cell.parse("none").endpoint(0), "no wait: no sleep, no call");
        assertThrows(IllegalArgumentException.class, () -> Grid.Cell.parse("cpu21"));
        assertThrows(IllegalArgumentException.class, () -> Grid.Cell.parse("sleep5+sleep5"));
    }

    @Test
    void theRateIsAShareOfTheEstimatedCapacityInStepsOfFiftyAndNeverPastTheFloorsRate() {
        Grid.Cell cpu1 = Grid.Cell.parse("cpu1");
        int half = Grid.rate(cpu1, 0.5, 2);
        assertEquals(0, half % 50);
        assertTrue(half < 1000 && half >= 800, "half of two cores of 1 ms requests: " + half);
        assertTrue(Grid.rate(cpu1, 0.8, 2) > half);
        assertEquals(Grid.MAX_RATE, Grid.rate(Grid.Cell.parse("none"), 1, 64));
        assertTrue(Grid.rate(Grid.Cell.parse("call20"), 0.5, 2) < Grid.rate(Grid.Cell.parse("sleep20"), 0.5, 2), "a call costs the backend too");
    }

    @Test
    void connectionsLeaveTheRateRoomAndTheSizedPoolHoldsWhatIsInFlight() {
        Grid.Cell sleep50 = Grid.Cell.parse("sleep50+cpu0.25");
        assertTrue(Grid.connections(sleep50, 2000) >= 2 * 2000 * 0.05, "twice what is in flight");
        assertEquals(16, Grid.connections(Grid.Cell.parse("none"), 100));
        PoolKind sized = Grid.sized(sleep50, 2000, 2);
        assertEquals((int) Math.ceil(1.25 * 2000 * 0.05025) + JettySetup.LOOP_THREADS, sized.size());
        List<PoolKind> sweep = Grid.sweep(sleep50, 2000, 2);
        assertTrue(sweep.contains(sized) && sweep.contains(PoolKind.qtp(200)) && sweep.contains(PoolKind.qtp(8)), sweep.toString());
        assertEquals(sweep.stream().sorted(java.util.Comparator.comparingInt(PoolKind::size)).toList(), sweep, "smallest first");
        assertEquals(Grid.SWEEP.size() + (Grid.SWEEP.contains(sized.size()) ? 0 : 1), sweep.size(), "the sized pool is added when it is new");
    }
}
