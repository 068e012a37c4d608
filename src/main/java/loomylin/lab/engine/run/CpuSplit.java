package loomylin.lab.engine.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.server.proc.CpuTimes;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStat;

/**
 * Where the machine's CPU went over a run's load, for the experiments that time their own loads (admission, bound):
 * the server JVM's CPU seconds (/proc/PID/stat), the load generator's own (its process's: oha's or wrk's; for a
 * client that runs inside the bench's JVM, that JVM's), each as a share of all the machine's CPUs over the load, and
 * the machine's busy share over it (/proc/stat; the rest is what neither spent: the bench's JVM, the kernel, anything
 * else). Its marks are the engine's ({@link ClientLimit}): {@code client_limited} and {@code machine_full}, each null
 * where not recorded (a file written before these columns, a run that measured nothing), so that such a run cannot
 * be judged either way.
 */
public record CpuSplit(double serverCpuS, double serverPct, double clientCpuS, double clientPct, double busyPct, Boolean clientLimited,
                       Boolean machineFull) {
    public static final CpuSplit NONE = new CpuSplit(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, null);

    private static final Column<CpuSplit, Double> SERVER_CPU_S = Column.fixed("server_cpu_s", 3, CpuSplit::serverCpuS);
    private static final Column<CpuSplit, Double> SERVER_PCT = Column.fixed("server_cpu_pct", 1, CpuSplit::serverPct);
    private static final Column<CpuSplit, Double> CLIENT_CPU_S = Column.fixed("client_cpu_s", 3, CpuSplit::clientCpuS);
    private static final Column<CpuSplit, Double> CLIENT_PCT = Column.fixed("client_cpu_pct", 1, CpuSplit::clientPct);
    private static final Column<CpuSplit, Double> BUSY_PCT = Column.fixed("machine_busy_pct", 1, CpuSplit::busyPct);
    private static final Column<CpuSplit, Boolean> CLIENT_LIMITED = Column.maybe("client_limited", CpuSplit::clientLimited);
    private static final Column<CpuSplit, Boolean> MACHINE_FULL = Column.maybe("machine_full", CpuSplit::machineFull);
    /** The split's columns in every CSV that records one; a file without them reads as {@link #NONE}. */
    public static final List<Column<CpuSplit, ?>> COLUMNS = List.of(SERVER_CPU_S, SERVER_PCT, CLIENT_CPU_S, CLIENT_PCT, BUSY_PCT, CLIENT_LIMITED,
            MACHINE_FULL);

    /**
     * The split of a load that lasted {@code seconds} on {@code cores}, marked by the engine's rules at {@code limitPct}:
     * client-limited where both CPUs are known ({@link ClientLimit#of}, the client sharing the server's CPUs), machine
     * full where the busy share is ({@link ClientLimit#machineFull}).
     */
    public static CpuSplit of(double serverCpuS, double clientCpuS, double seconds, int cores, double busyPct, int limitPct) {
        double machineS = seconds * cores;
        double serverPct = 100 * serverCpuS / machineS;
        double clientPct = 100 * clientCpuS / machineS;
        Boolean limited = Double.isNaN(serverPct) || Double.isNaN(clientPct) ? null : ClientLimit.of(clientPct, serverPct, cores, cores, true, limitPct);
        Boolean full = Double.isNaN(busyPct) ? null : ClientLimit.machineFull(busyPct, limitPct);
        return new CpuSplit(serverCpuS, serverPct, clientCpuS, clientPct, busyPct, limited, full);
    }

    /** Whether either mark was recorded: a run without ({@link #NONE}) cannot be judged. */
    public boolean recorded() {
        return clientLimited != null || machineFull != null;
    }

    /** The marks it carries, in the reports' words; empty when it carries none or was not recorded. */
    public List<String> marks() {
        List<String> marks = new ArrayList<>();
        if (Boolean.TRUE.equals(clientLimited)) marks.add("client-limited");
        if (Boolean.TRUE.equals(machineFull)) marks.add("machine full");
        return marks;
    }

    /** Carries a mark: decides nothing. */
    public boolean marked() {
        return !marks().isEmpty();
    }

    /** Its marks with the figures behind them: "client-limited, machine full (server 62 %, client 30 %, machine 97 % busy)"; "" when unmarked. */
    public String why() {
        if (!marked()) return "";
        return String.join(", ", marks()) + " (" + shares() + ")";
    }

    /** "server 62 %, client 30 %, machine 97 % busy", leaving out what was not recorded. */
    public String shares() {
        List<String> parts = new ArrayList<>();
        if (!Double.isNaN(serverPct)) parts.add(String.format(Locale.ROOT, "server %.0f %%", serverPct));
        if (!Double.isNaN(clientPct)) parts.add(String.format(Locale.ROOT, "client %.0f %%", clientPct));
        if (!Double.isNaN(busyPct)) parts.add(String.format(Locale.ROOT, "machine %.0f %% busy", busyPct));
        return String.join(", ", parts);
    }

    /** A split read back from a row with its {@link #COLUMNS}. */
    public static CpuSplit read(Table.Fields f) {
        return new CpuSplit(f.get(SERVER_CPU_S), f.get(SERVER_PCT), f.get(CLIENT_CPU_S), f.get(CLIENT_PCT), f.get(BUSY_PCT), f.get(CLIENT_LIMITED),
                f.get(MACHINE_FULL));
    }

    /** Starts watching a load on the server JVM {@code serverPid}: its CPU and the machine's, now. */
    public static Watch watch(long serverPid) {
        return new Watch(serverPid, ticksOf(serverPid), ProcReader.SYSTEM.cpuTimes(), System.nanoTime());
    }

    /** A load being watched: the server's CPU ticks (-1 when unreadable), the machine's CPU times and the clock at its start. */
    public record Watch(long serverPid, long serverTicks, Optional<CpuTimes> machine, long startedNs) {
        /**
         * The split from the start until now, the load generator having spent {@code clientCpuS} (NaN: not known); the
         * server's CPU is NaN when either reading failed (a server that exited), which leaves the run unmarked by the
         * client-limited rule, never marked on a guess.
         */
        public CpuSplit end(double clientCpuS, int cores, int limitPct) {
            long after = ticksOf(serverPid);
            double seconds = (System.nanoTime() - startedNs) / 1e9;
            double busyPct = machine.flatMap(b -> ProcReader.SYSTEM.cpuTimes().map(a -> a.busyPctSince(b))).orElse(Double.NaN);
            double serverCpuS = serverTicks < 0 || after < 0 ? Double.NaN : (after - serverTicks) / ProcStat.TICKS_PER_SECOND;
            return of(serverCpuS, clientCpuS, seconds, cores, busyPct, limitPct);
        }
    }

    private static long ticksOf(long pid) {
        return ProcReader.SYSTEM.stat(pid).map(ProcStat::cpuTicks).orElse(-1L);
    }
}
