package loomylin.bench.crossover;

import java.util.ArrayList;
import java.util.List;
import loomylin.bench.run.Endpoint;
import loomylin.jetty.JettySetup;
import loomylin.jetty.PoolKind;

/**
 * The crossover grid: every cell (blocking wait per request x CPU per request) served by {@code /mixed} on
 * {@code loom}, on Jetty's default-sized {@code qtp:200}, on a platform pool sized by Little's law for the cell,
 * on {@link Shapes#PREFERRED}, and by {@code /mixed-async} on each of {@link Shapes#ASYNC}; all closed-loop at
 * one concurrency. The repeats of a cell interleave across its pools (A B C A B C).
 */
public final class Grid {
    private Grid() {
    }

    /** Who serves a cell: the role names a pool in the CSV and the maps whatever its size in this cell. */
    public enum Role {
        LOOM("loom"), QTP200("qtp:200"), LITTLE("little"), PREFERRED("preferred"), ASYNC("async");

        public final String label;

        Role(String label) {
            this.label = label;
        }

        /** The platform pools loom is compared with ("the best platform pool" is the better of them per metric). */
        public boolean platform() {
            return this == QTP200 || this == LITTLE;
        }
    }

    /** A cell: {@code waitMs} of sleep and {@code cpuMs} of SHA-256 work per request. */
    public record Cell(int waitMs, double cpuMs) {
    }

    /** One run of the plan. */
    public record Run(Cell cell, Role role, PoolKind pool, Endpoint endpoint, int repeat) {
        public String describe() {
            return "wait " + cell.waitMs() + " ms, cpu " + cell.cpuMs() + " ms: " + role.label + " " + pool + " /" + endpoint + " #" + repeat;
        }
    }

    /**
     * The least CPU a request is assumed to cost when sizing a pool by Little's law, so that a cell whose
     * handler does no CPU work of its own still gets a finite pool; the floor preset measures what it really is.
     */
    public static final double SIZING_CPU_FLOOR_MS = 0.05;

    /**
     * The platform pool Little's law sizes for a closed loop of {@code concurrency} clients: enough request
     * threads to keep every core busy while the others wait, {@code cores x (wait + cpu) / cpu}, no more than
     * there are clients, plus the threads Jetty's connector leases for its loops.
     */
    public static PoolKind little(Cell cell, int concurrency, int cores) {
        double cpu = Math.max(cell.cpuMs(), SIZING_CPU_FLOOR_MS);
        long threads = (long) Math.ceil(cores * (cell.waitMs() + cpu) / cpu);
        long size = Math.min(concurrency, Math.max(cores, threads)) + JettySetup.LOOP_THREADS;
        return PoolKind.qtp((int) Math.min(size, PoolKind.MAX_SIZE));
    }

    /** Every run, cell by cell (CPU levels outer, waits inner), repeats interleaved across a cell's pools. */
    public static List<Run> plan(List<Integer> waits, List<Double> cpus, int concurrency, int cores, int repeat, CpuQuery query) {
        List<Run> runs = new ArrayList<>();
        for (double cpu : cpus) {
            for (int wait : waits) {
                Cell cell = new Cell(wait, cpu);
                Endpoint blocking = Endpoint.parse(query.of("mixed", cell));
                Endpoint async = Endpoint.parse(query.of("mixed-async", cell));
                PoolKind little = little(cell, concurrency, cores);
                for (int r = 1; r <= repeat; r++) {
                    runs.add(new Run(cell, Role.LOOM, PoolKind.loom(), blocking, r));
                    runs.add(new Run(cell, Role.QTP200, PoolKind.qtp(200), blocking, r));
                    if (!little.equals(PoolKind.qtp(200))) runs.add(new Run(cell, Role.LITTLE, little, blocking, r));
                    runs.add(new Run(cell, Role.PREFERRED, PoolKind.parse(Shapes.PREFERRED), blocking, r));
                    for (String a : Shapes.ASYNC) runs.add(new Run(cell, Role.ASYNC, PoolKind.parse(a), async, r));
                }
            }
        }
        return runs;
    }

    /** The route and query of a cell, e.g. {@code mixed?cpu=1200&sleep=5&file=0}. */
    @FunctionalInterface
    public interface CpuQuery {
        String of(String route, Cell cell);
    }
}
