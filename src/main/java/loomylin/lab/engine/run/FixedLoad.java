package loomylin.lab.engine.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.load.OhaRun;
import loomylin.lab.engine.measure.CodeOwners;
import loomylin.lab.engine.measure.FlightRecording;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.server.cli.StartupFailure;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStat;

/**
 * One run at a fixed open-loop rate on a started server, measured by cost: oha offers the same rate in warm-up
 * slices until the JIT is quiet and two in a row cost the same CPU per answer ({@link Warmup}: at least
 * {@link Warmup#MIN_SLICES}, at most {@link #MAX_SLICES}: else the run is cold or unsettled), then the server idles
 * (the CPU its JVM spends anyway), then the measured window, its CPU split by thread ({@link JvmCpu}). A
 * {@link Window} decides only when it was warm and settled, met the rate, had no errors and the client was not the
 * limit. The floor and the crossover measure every run this way.
 */
public final class FixedLoad {
    public static final int MIN_SLICES = Warmup.MIN_SLICES;
    public static final int MAX_SLICES = 8;
    /** Two warm-up slices in a row whose CPU per answer differ by at most this share settle a run. */
    public static final double SETTLE_SHARE = Warmup.SETTLE_SHARE;
    /** A window met its rate when it answered at least this share of what was offered, as fast as it was offered. */
    public static final double RATE_MET_SHARE = 0.97;

    private FixedLoad() {
    }

    /** What oha offers a run: {@code rate} over {@code connections}, warm-up slices of {@code slice}, {@code idle} with none (zero: not measured), the window. */
    public record Load(int rate, int connections, Duration slice, Duration idle, int measureS, int timeoutS) {
    }

    /**
     * What one run measured. {@code cpuS} is the server JVM's CPU over the window (from /proc), {@code answers}
     * its 2xx answers, {@code durationS} how long oha took to send and hear them.
     */
    public record Window(int warmupSlices, boolean settled, double idleCpuMsPerS, int offeredRps, int windowS, double durationS, long answers, long errors,
                         double cpuS, double p50Ms, double p99Ms, double p999Ms, double clientCpuPct, double serverCpuPct, boolean clientLimited,
                         String owners, String topLoomylin, Warmth jit) {
        private static final Column<Window, Integer> SLICES = Column.integer("warmup_slices", Window::warmupSlices);
        private static final Column<Window, Boolean> SETTLED = Column.flag("settled", Window::settled);
        private static final Column<Window, Double> IDLE = Column.fixed("idle_cpu_ms_per_s", 2, Window::idleCpuMsPerS);
        private static final Column<Window, Integer> OFFERED = Column.integer("offered_rps", Window::offeredRps);
        /** Files from before this column held oha -n runs, whose window was their duration rounded. */
        private static final Column<Window, Integer> WINDOW_S = Column.<Window>integer("window_s", Window::windowS).orElse(null);
        private static final Column<Window, Double> DURATION = Column.fixed("duration_s", 2, Window::durationS);
        private static final Column<Window, Long> ANSWERS = Column.whole("answers", Window::answers);
        private static final Column<Window, Long> ERRORS = Column.whole("errors", Window::errors);
        private static final Column<Window, Double> CPU_S = Column.fixed("cpu_s", 2, Window::cpuS);
        private static final Column<Window, Double> P50 = Column.fixed("p50_ms", 2, Window::p50Ms);
        private static final Column<Window, Double> P99 = Column.fixed("p99_ms", 2, Window::p99Ms);
        private static final Column<Window, Double> P999 = Column.fixed("p999_ms", 2, Window::p999Ms);
        private static final Column<Window, Double> CLIENT_PCT = Column.fixed("client_cpu_pct", 1, Window::clientCpuPct);
        private static final Column<Window, Double> SERVER_PCT = Column.fixed("server_cpu_pct", 1, Window::serverCpuPct);
        private static final Column<Window, Boolean> CLIENT_LIMITED = Column.flag("client_limited", Window::clientLimited);
        private static final Column<Window, String> OWNERS = Column.quoted("jfr_owners", Window::owners);
        private static final Column<Window, String> TOP = Column.quoted("jfr_top_loomylin", Window::topLoomylin);
        /** A window's columns in every CSV that embeds one, the derived ones (CPU per answer, rate met, decides) among them, then {@link Warmth}'s. */
        public static final List<Column<Window, ?>> COLUMNS = java.util.stream.Stream.concat(java.util.stream.Stream.of(SLICES, SETTLED, IDLE, OFFERED,
                WINDOW_S, DURATION, ANSWERS, ERRORS, CPU_S, Column.<Window>fixed("cpu_ms_per_req", 5, Window::cpuMsPerRequest).computed(),
                Column.<Window>fixed("net_cpu_ms_per_req", 5, Window::netCpuMsPerRequest).computed(), P50, P99, P999, CLIENT_PCT, SERVER_PCT, CLIENT_LIMITED,
                Column.<Window>flag("rate_met", Window::rateMet).computed(), Column.<Window>flag("decides", Window::decides).computed(), OWNERS, TOP),
                Column.of(Warmth.COLUMNS, (Window w) -> new Warmth.Of(w.jit, w.answers)).stream()).toList();

        /** A run that measured nothing. */
        public static Window none(int offeredRps) {
            return new Window(0, false, Double.NaN, offeredRps, 0, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, false, "", "", Warmth.NONE);
        }


        /** Server CPU over the window per answer: a figure of the answers, never of the client's wall time. */
        public double cpuMsPerRequest() {
            return answers == 0 ? Double.NaN : 1000 * cpuS / answers;
        }

        /** The same less what the idle JVM spent over as long: the request's own CPU. */
        public double netCpuMsPerRequest() {
            return answers == 0 || Double.isNaN(idleCpuMsPerS) ? Double.NaN : (1000 * cpuS - idleCpuMsPerS * durationS) / answers;
        }

        /** Answered inside the window at least {@link #RATE_MET_SHARE} of what was offered over it; oha's wall time plays no part. */
        public boolean rateMet() {
            return answers > 0 && answers >= RATE_MET_SHARE * offeredRps * windowS;
        }

        /** Whether this run may decide anything. */
        public boolean decides() {
            return answers > 0 && settled && !jit.cold() && rateMet() && !clientLimited && errors == 0;
        }

        /** What keeps a run out of every verdict, in the words the reports use; empty when it decides. */
        public List<String> marks() {
            List<String> marks = new ArrayList<>();
            if (answers == 0) return List.of("no answers");
            if (jit.cold()) marks.add("cold");
            if (!settled) marks.add("unsettled");
            if (clientLimited) marks.add("client-limited");
            if (!rateMet()) marks.add("missed the rate");
            if (errors > 0) marks.add("with errors");
            return marks;
        }

        /** A window read back from a row with its {@link #COLUMNS}. */
        public static Window read(Table.Fields f) {
            Integer windowS = f.get(WINDOW_S);
            return new Window(f.get(SLICES), f.get(SETTLED), f.get(IDLE), f.get(OFFERED), windowS != null ? windowS : (int) Math.round(f.get(DURATION)),
                    f.get(DURATION), f.get(ANSWERS), f.get(ERRORS), f.get(CPU_S), f.get(P50), f.get(P99), f.get(P999), f.get(CLIENT_PCT), f.get(SERVER_PCT),
                    f.get(CLIENT_LIMITED), f.get(OWNERS), f.get(TOP), Warmth.read(f, f.get(ANSWERS), f.get(CPU_S)));
        }
    }

    /**
     * Warms {@code url} up at the load's rate until settled, idles, then measures the window; with a
     * {@code recording} path, the window is recorded by JFR and its samples split by whose code they ran in.
     */
    public static Window measure(ServerProcess server, URI url, Path oha, Load load, int cores, int clientLimitPct, Path recording)
            throws IOException, InterruptedException {
        Warmup.Result warmup = Warmup.run(ProcReader.SYSTEM, server.pid(), MAX_SLICES,
                () -> OhaRun.openWindow(oha, url, load.rate(), load.slice(), load.connections(), load.timeoutS(), null).all().ok());
        double idleCpuMsPerS = load.idle().isZero() ? Double.NaN : idleCpuMsPerS(server, load.idle());
        FlightRecording flight = recording == null ? null : FlightRecording.start(server.pid(), recording, FlightRecording.SAMPLE_EVERY_MS);
        JvmCpu.Snapshot before = JvmCpu.snapshot(ProcReader.SYSTEM, server.pid());
        OhaRun.Split window = OhaRun.openWindow(oha, url, load.rate(), Duration.ofSeconds(load.measureS()), load.connections(), load.timeoutS(), null);
        JvmCpu threads = JvmCpu.between(before, JvmCpu.snapshot(ProcReader.SYSTEM, server.pid()));
        double cpuS = threads.totalS();
        String owners = "";
        String top = "";
        if (flight != null) {
            flight.stop();
            CodeOwners.Split split = CodeOwners.read(recording);
            owners = split.shares();
            top = split.topLoomylin(3);
        }
        if (!server.alive()) throw new StartupFailure("server exited during the run: " + server.outputTail());
        double wallS = window.all().wallS();
        double clientPct = 100 * window.all().clientCpuS() / (wallS * cores);
        double serverPct = 100 * cpuS / (wallS * cores);
        return new Window(warmup.slices().size(), warmup.settled(), idleCpuMsPerS, load.rate(), load.measureS(), wallS, window.all().ok(), window.errors() + (window.all().answered() - window.all().ok()),
                cpuS, window.ok().p50Ms(), window.ok().p99Ms(), window.ok().p999Ms(), clientPct, serverPct,
                ClientLimit.of(clientPct, serverPct, cores, cores, true, clientLimitPct), owners, top,
                Warmth.of(warmup, threads));
    }

    /**
     * The warm-up's JIT rule in the reports' words, for pages with runs that recorded it ({@code recorded}); "" for
     * pages written from runs before it, whose warm-up compared costs alone.
     */
    public static String jitRule(boolean recorded) {
        return !recorded ? "" : " " + Warmup.quietRule() + " The window's CPU is split by thread: the JIT's and the garbage collector's (with the VM"
                + " thread) per answer are columns of the CSV.";
    }

    /**
     * What a request costs the server beyond its own work, in ms of CPU (Jetty, Loomylin's handlers, oha's share of
     * the cores; for a backend call ({@code call}), the server's HTTP client and the backend's answer too): an
     * estimate to size an offered rate with, not a result.
     */
    public static double overheadMs(boolean call) {
        return call ? 0.5 : 0.15;
    }

    /** The machine's one-minute load average before a run ({@link ProcReader#loadAverage}); NaN where there is none. */
    public static double load1() {
        return ProcReader.SYSTEM.loadAverage().map(Double::parseDouble).orElse(Double.NaN);
    }

    /** The server's CPU over {@code idle} with no load, in ms per second: what its JVM spends anyway. */
    public static double idleCpuMsPerS(ServerProcess server, Duration idle) throws InterruptedException {
        double before = cpuS(server);
        Thread.sleep(idle.toMillis());
        return 1000 * (cpuS(server) - before) / (idle.toMillis() / 1000.0);
    }

    private static double cpuS(ServerProcess server) {
        return ProcReader.SYSTEM.stat(server.pid()).map(ProcStat::cpuTicks)
                .orElseThrow(() -> new StartupFailure("server exited during the run: " + server.outputTail())) / ProcStat.TICKS_PER_SECOND;
    }
}
