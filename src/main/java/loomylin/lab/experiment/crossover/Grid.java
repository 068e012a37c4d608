package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.run.FixedLoad;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import loomylin.server.web.Limits;
import loomylin.server.web.Params;

/**
 * The crossover's cells and the load each is offered. A cell is what a request does: {@code cpuMs} of SHA-256 work
 * and a blocking wait of {@code waitMs}, as a sleep or as one socket call to the backend. Each cell is offered one
 * open-loop rate, a share of what this machine is estimated to serve of it, over enough connections that the rate
 * never waits for a connection; the platform pools a sweep tries are {@link #SWEEP} and a pool sized by Little's law
 * for that rate.
 */
public final class Grid {
    private Grid() {
    }

    /** How a cell waits. */
    public enum Wait {
        /** {@code Thread.sleep}: a timer, no socket. */
        SLEEP("sleep"),
        /** One blocking HTTP call to the backend, which answers after the wait. */
        CALL("call");

        public final String label;

        Wait(String label) {
            this.label = label;
        }
    }

    /** A cell; its label is what {@code --cells} takes, such as {@code sleep5+cpu0.25}, {@code call20+cpu0.25}, {@code cpu1} or {@code none}. */
    public record Cell(Wait kind, int waitMs, double cpuMs) {
        public String label() {
            List<String> parts = new ArrayList<>();
            if (waitMs > 0) parts.add(kind.label + waitMs);
            if (cpuMs > 0) parts.add("cpu" + number(cpuMs));
            return parts.isEmpty() ? "none" : String.join("+", parts);
        }

        /** The route and query that does this cell's work with {@code iterations} of SHA-256. */
        public String endpoint(int iterations) {
            return "mixed?cpu=" + iterations + "&sleep=" + waitMs + "&file=0" + (kind == Wait.CALL && waitMs > 0 ? "&calls=1" : "");
        }

        public static Cell parse(String text) {
            String t = text.trim();
            if (t.equals("none")) return new Cell(Wait.SLEEP, 0, 0);
            Wait wait = Wait.SLEEP;
            int waitMs = 0;
            double cpuMs = 0;
            boolean any = false;
            for (String part : t.split("\\+", -1)) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(sleep|call)(\\d{1,5})|cpu(\\d{1,3}(?:\\.\\d{1,3})?)").matcher(part);
                if (!m.matches()) throw new IllegalArgumentException(problem(text));
                if (m.group(1) != null) {
                    if (waitMs > 0) throw new IllegalArgumentException(problem(text));
                    wait = m.group(1).equals("call") ? Wait.CALL : Wait.SLEEP;
                    waitMs = Integer.parseInt(m.group(2));
                    if (waitMs > Limits.MS_MAX) throw new IllegalArgumentException(problem(text));
                } else {
                    cpuMs = Double.parseDouble(m.group(3));
                    if (cpuMs > MAX_CPU_MS) throw new IllegalArgumentException(problem(text));
                }
                any = true;
            }
            if (!any) throw new IllegalArgumentException(problem(text));
            return new Cell(wait, waitMs, cpuMs);
        }

        private static String problem(String text) {
            return "a cell is sleepMS, callMS, cpuMS or two joined by '+' (such as sleep5+cpu0.25, call20+cpu0.25, cpu1, none), waits up to "
                    + Limits.MS_MAX + " ms and CPU up to " + (int) MAX_CPU_MS + " ms; got '" + Params.printable(text) + "'";
        }
    }

    public static final double MAX_CPU_MS = 20;

    /** The default cells, by the question each answers (docs/methodology/crossover.md). */
    public static final List<Cell> CELLS = List.of(Cell.parse("cpu1"), Cell.parse("sleep5+cpu0.25"), Cell.parse("sleep50+cpu0.25"),
            Cell.parse("call20+cpu0.25"));

    /** The platform pools the sweep tries in every cell, beside the one Little's law sizes for its rate. */
    public static final List<Integer> SWEEP = List.of(8, 16, 32, 64, 200);

    /**
     * What a request is estimated to cost beyond its own CPU work, on the server and in oha together (ms of CPU): the
     * floor's Loomylin request and oha's share for a sleep; for a call, the server's HTTP client and the backend's answer
     * too. An estimate to size the offered rate with, not a result.
     */
    static double overheadMs(Cell cell) {
        return FixedLoad.overheadMs(cell.kind() == Wait.CALL && cell.waitMs() > 0);
    }


    /** The most a cell is offered: the floor's rate. */
    public static final int MAX_RATE = Floor.RATE;

    /** {@code share} of this machine's estimated capacity for the cell, in steps of 50 req/s, at least 50 and at most {@link #MAX_RATE}. */
    public static int rate(Cell cell, double share, int cores) {
        double capacity = cores * 1000 / (cell.cpuMs() + overheadMs(cell));
        return (int) Math.max(50, Math.min(MAX_RATE, Math.floor(share * capacity / 50) * 50));
    }

    /** Requests in flight at {@code rate} if each took exactly its wait and CPU. */
    static double inFlight(Cell cell, int rate) {
        return rate * (cell.waitMs() + cell.cpuMs()) / 1000;
    }

    /** Connections for oha: twice the requests in flight with 2 ms of slack each, at least 16, at most 2,000. */
    public static int connections(Cell cell, int rate) {
        return (int) Math.max(16, Math.min(2000, Math.ceil(2 * rate * (cell.waitMs() + cell.cpuMs() + 2) / 1000)));
    }

    /**
     * The platform pool Little's law sizes for the rate: a quarter more request threads than requests in flight, at
     * least one per core, plus the threads Jetty's connector leases for its loops.
     */
    public static PoolKind sized(Cell cell, int rate, int cores) {
        long threads = Math.max(cores, (long) Math.ceil(1.25 * inFlight(cell, rate)));
        return PoolKind.qtp((int) Math.min(threads + JettySetup.LOOP_THREADS, PoolKind.MAX_SIZE));
    }

    /** The sweep's pools for a cell at a rate: {@link #SWEEP} and the sized one, smallest first, no pool twice. */
    public static List<PoolKind> sweep(Cell cell, int rate, int cores) {
        List<Integer> sizes = new ArrayList<>(SWEEP);
        int sized = sized(cell, rate, cores).size();
        if (!sizes.contains(sized)) sizes.add(sized);
        return sizes.stream().sorted().map(PoolKind::qtp).toList();
    }

    static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v).replaceAll("0+$", "");
    }
}
