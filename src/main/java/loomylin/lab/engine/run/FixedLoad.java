package loomylin.lab.engine.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.lab.engine.load.OhaRun;
import loomylin.lab.engine.measure.CodeOwners;
import loomylin.lab.engine.measure.FlightRecording;
import loomylin.lab.engine.measure.JvmCpu;
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
        public static final List<String> COLUMNS = java.util.stream.Stream.concat(java.util.stream.Stream.of("warmup_slices", "settled", "idle_cpu_ms_per_s", "offered_rps", "window_s", "duration_s", "answers",
                "errors", "cpu_s", "cpu_ms_per_req", "net_cpu_ms_per_req", "p50_ms", "p99_ms", "p999_ms", "client_cpu_pct", "server_cpu_pct",
                "client_limited", "rate_met", "decides", "jfr_owners", "jfr_top_loomylin"), Warmth.COLUMNS.stream()).toList();

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

        public List<String> csv() {
            List<String> fields = new ArrayList<>(List.of(Integer.toString(warmupSlices), Boolean.toString(settled), fixed(idleCpuMsPerS, 2), Integer.toString(offeredRps),
                    Integer.toString(windowS), fixed(durationS, 2), Long.toString(answers), Long.toString(errors), fixed(cpuS, 2), fixed(cpuMsPerRequest(), 5),
                    fixed(netCpuMsPerRequest(), 5), fixed(p50Ms, 2), fixed(p99Ms, 2), fixed(p999Ms, 2), fixed(clientCpuPct, 1), fixed(serverCpuPct, 1),
                    Boolean.toString(clientLimited), Boolean.toString(rateMet()), Boolean.toString(decides()), quote(owners), quote(topLoomylin)));
            fields.addAll(jit.csv(answers));
            return fields;
        }

        public static Window fromCsv(Map<String, String> f) {
            return new Window(Integer.parseInt(f.get("warmup_slices")), Boolean.parseBoolean(f.get("settled")), number(f.get("idle_cpu_ms_per_s")),
                    Integer.parseInt(f.get("offered_rps")), FixedLoad.windowS(f), number(f.get("duration_s")), Long.parseLong(f.get("answers")), Long.parseLong(f.get("errors")),
                    number(f.get("cpu_s")), number(f.get("p50_ms")), number(f.get("p99_ms")), number(f.get("p999_ms")), number(f.get("client_cpu_pct")),
                    number(f.get("server_cpu_pct")), Boolean.parseBoolean(f.get("client_limited")), orEmpty(f.get("jfr_owners")),
                    orEmpty(f.get("jfr_top_loomylin")), Warmth.fromCsv(f, Long.parseLong(f.get("answers")), number(f.get("cpu_s"))));
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
        return !recorded ? "" : String.format(Locale.ROOT, " The warm-up also waits for the JIT: it ends only after a slice in which the server's"
                + " compiler threads spent at most %.0f %% of its CPU; a run whose last slice had the JIT busier is *cold* and decides nothing. The"
                + " window's CPU is split by thread: the JIT's and the garbage collector's (with the VM thread) per answer are columns of the CSV.",
                100 * Warmup.QUIET_SHARE);
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

    /** A results CSV's columns: {@code head}, then a {@link Window}'s, then {@code failure}. */
    public static List<String> columns(List<String> head) {
        List<String> columns = new ArrayList<>(head);
        columns.addAll(Window.COLUMNS);
        columns.add("failure");
        return List.copyOf(columns);
    }

    /** A row of such a CSV: {@code head}'s fields, the window's, the failure. */
    public static String csvLine(List<String> head, Window w, String failure) {
        List<String> fields = new ArrayList<>(head);
        fields.addAll(w.csv());
        fields.add(quote(failure));
        return String.join(",", fields) + "\n";
    }

    private static double cpuS(ServerProcess server) {
        return ProcReader.SYSTEM.stat(server.pid()).map(ProcStat::cpuTicks)
                .orElseThrow(() -> new StartupFailure("server exited during the run: " + server.outputTail())) / ProcStat.TICKS_PER_SECOND;
    }

    public static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    public static double number(String s) {
        return s == null || s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }

    public static String quote(String s) {
        return s == null || s.isEmpty() ? "" : "\"" + s.replace("\"", "'") + "\"";
    }

    /** The window's length; results written before it had a column were oha -n runs, whose length is their duration rounded. */
    public static int windowS(Map<String, String> f) {
        String w = f.get("window_s");
        return w != null && !w.isEmpty() ? Integer.parseInt(w) : (int) Math.round(number(f.get("duration_s")));
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
