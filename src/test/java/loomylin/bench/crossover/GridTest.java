package loomylin.bench.crossover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import loomylin.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** The crossover grid: the Little's-law pool of a cell, and the runs of a plan. */
class GridTest {
    private static final Grid.CpuQuery QUERY = (route, cell) -> route + "?cpu=" + (int) (cell.cpuMs() * 1000) + "&sleep=" + cell.waitMs() + "&file=0";

    @Test
    void littlesLawSizesEnoughThreadsToKeepTheCoresBusyPlusTheConnectorsTwo() {
        assertEquals(PoolKind.qtp(2 * 21 + 2), Grid.little(new Grid.Cell(20, 1.0), 400, 2)); // 2 x (20 + 1) / 1
        assertEquals(PoolKind.qtp(2 + 2), Grid.little(new Grid.Cell(0, 1.0), 400, 2)); // no wait: a thread per core
    }

    @Test
    void littlesPoolNeverHasMoreRequestThreadsThanClients() {
        assertEquals(PoolKind.qtp(400 + 2), Grid.little(new Grid.Cell(100, 0.0), 400, 2));
    }

    @Test
    void everyCellHasLoomQtp200TheLittlePoolThePreferredShapeAndAsync() {
        List<Grid.Run> runs = Grid.plan(List.of(20), List.of(1.0), 400, 2, 1, QUERY);
        assertEquals(List.of(Grid.Role.LOOM, Grid.Role.QTP200, Grid.Role.LITTLE, Grid.Role.PREFERRED, Grid.Role.ASYNC),
                runs.stream().map(Grid.Run::role).toList());
        assertEquals(PoolKind.parse(Shapes.PREFERRED), runs.get(3).pool());
        assertEquals("mixed-async?cpu=1000&sleep=20&file=0", runs.get(4).endpoint().toString());
        assertTrue(runs.subList(0, 4).stream().allMatch(r -> r.endpoint().toString().equals("mixed?cpu=1000&sleep=20&file=0")));
    }

    @Test
    void aLittlePoolOf200IsNotRunTwice() {
        List<Grid.Run> runs = Grid.plan(List.of(98), List.of(1.0), 400, 2, 1, QUERY); // 2 x 99 = 198 + 2 = qtp:200
        assertEquals(1, runs.stream().filter(r -> r.pool().equals(PoolKind.qtp(200))).count());
    }

    @Test
    void repeatsInterleaveAcrossTheCellsPools() {
        List<Grid.Run> runs = Grid.plan(List.of(5), List.of(0.5), 400, 2, 2, QUERY);
        int perRepeat = runs.size() / 2;
        assertTrue(runs.subList(0, perRepeat).stream().allMatch(r -> r.repeat() == 1));
        assertTrue(runs.subList(perRepeat, runs.size()).stream().allMatch(r -> r.repeat() == 2));
        assertEquals(runs.subList(0, perRepeat).stream().map(Grid.Run::pool).toList(), runs.subList(perRepeat, runs.size()).stream().map(Grid.Run::pool).toList());
    }
}
