package loomylin.lab.experiment.bound;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import loomylin.lab.engine.run.ClientLimit;
import loomylin.server.jetty.MaxInFlight;
import loomylin.server.proc.CpuTimes;
import loomylin.server.proc.ProcStat;
import loomylin.lab.engine.run.Calibration;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.load.OhaRun;
import loomylin.lab.engine.load.RetryAfterLoop;
import loomylin.lab.engine.load.WrkRun;
import loomylin.lab.engine.measure.HttpGet;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Timed;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.PoolKind;
import loomylin.server.proc.ProcReader;

/**
 * {@code bench --preset admission}: does {@code --max-in-flight} deliver what it was sized for under CPU
 * overload? The load is {@link Bound}'s {@code cpu} cell (the fibers-server seed's 1 s request, 5 % CPU), and
 * the limit is Little's law on the cores, so the sized capacity is limit / 1 s requests per second. Each pool
 * shape, behind that limit, gets three loads on a fresh server JVM: open loop at {@link #OPEN_RATES} times the
 * sized capacity, closed loop with {@link Bound}'s 2,000 clients that re-send every 503 at once, and the same
 * closed loop with clients that wait as each 503's {@code Retry-After} asks ({@link RetryAfterLoop}; oha cannot).
 * Every load keeps the latency of the 2xx answers apart from the 503s'.
 *
 * <p>Before each load: a warm-up on the probe request with no more clients than the limit (a warm-up past the
 * limit would leave a queue), then a check that the server is idle (nothing admitted or queued; a run that
 * starts otherwise is marked and decides nothing). After it: probes until the server answers promptly
 * ({@link Bound#recovery}). Repeats are interleaved: every pool and load once before the next repeat.
 *
 * <p>The goal of an open-loop run: goodput (2xx answers per second of the window) at least {@link #GOAL} of the
 * sized capacity, and the 2xx answers' p99 under the limit's wait plus the request's own time. Writes
 * admission.csv (a row per run, as it goes), admission.md and provenance.json; run again with the same
 * {@code --out}, its rows join the earlier ones as the next invocation ({@link Invocations}).
 */
public final class AdmissionBench {
    public static final String NAME = "admission";
    public static final Set<String> FLAGS = Set.of("preset", "pools", "loads", "limits", "client-limit", "rerender", "duration", "repeat", "heap", "out", "timeout", "twin", "wrk", "oha", "java", "help");
    public static final List<String> POOLS = List.of("qtp:200", "qtp:64", "loom", "jetty-vtp", "jetty-vtp:64", "qtp-vt:8", "qtp-vtp:8:64");
    /** Open-loop offers as multiples of the sized capacity. */
    public static final List<Double> OPEN_RATES = List.of(1.2, 2.0);
    public static final int CLOSED_CLIENTS = 2000;
    /** oha's connections in the open loop: room for every request of a 2 s backlog at the highest rate. */
    static final int OPEN_CONNECTIONS = 500;
    /** A 1 s request's window: 20 requests and half again per client, as every closed-loop window ({@code Windows}). */
    public static final Duration WINDOW = Duration.ofSeconds(30);
    public static final int REPEAT = 3;
    public static final Duration WARMUP = Duration.ofSeconds(5);
    public static final double GOAL = 0.8;
    static final int REQUEST_MS = 1000;
    static final int MAX_WAIT_MS = 1000;
    /** {@code --limits}' default: the limit sized by Little's law on the cores. */
    static final String FIXED = "fixed";
    /** {@code --limits}: no limit in front of the pool. */
    static final String NONE = "none";
    /** {@code --client-limit}'s default: as busy as this, in percent, the run was not the server's alone ({@link ClientLimit}). */
    static final int CLIENT_LIMIT_PCT = 90;

    /** How a load's clients send: open loop at a rate, closed loop re-sending at once, or closed loop honouring Retry-After. */
    enum Loop {
        OPEN("open"), CLOSED("closed"), RETRY_AFTER("retry-after");

        final String flag;

        Loop(String flag) {
            this.flag = flag;
        }
    }

    /** One load on one pool: open at {@code rate} times the capacity, or closed with {@link #CLOSED_CLIENTS} clients. */
    record Variant(String name, Loop loop, double rate) {
        boolean open() {
            return loop == Loop.OPEN;
        }
    }
    /**
     * One run. {@code goodput}: 2xx answers per second of the window; {@code refused}: answers other than 2xx;
     * {@code errors}: requests without an answer (timeouts, failed connections), not counting those a closed-loop
     * window's end aborted; {@code idleBefore}: nothing admitted or queued when the load began.
     */
    record Row(int invocation, int repeat, String pool, String variant, int limit, String limitKind, int offered, long sent, long ok, long refused, long errors,
               double goodput, double okP50Ms, double okP99Ms, double allP99Ms, boolean idleBefore, double recoveryS, Split split, String failure) {

        boolean recovered() {
            return !Double.isNaN(recoveryS);
        }
    }

    /**
     * Where the machine's CPU went during a run's load, as every experiment records it: the server JVM's seconds, its
     * share of the machine and the machine's busy share (the rest is the client's and anything else's), in percent, and
     * whether the run was not the server's alone ({@link ClientLimit}: client and server together kept the machine this
     * busy). {@link #NONE} for runs recorded before the split was (null marks: not known).
     */
    record Split(double serverCpuS, double serverPct, double busyPct, Boolean clientLimited) {
        static final Split NONE = new Split(Double.NaN, Double.NaN, Double.NaN, null);

        static Split of(double serverCpuS, double seconds, int cores, double busyPct, int limitPct) {
            double serverPct = 100.0 * serverCpuS / (seconds * cores);
            double otherPct = Math.max(0, busyPct - serverPct);
            return new Split(serverCpuS, serverPct, busyPct, ClientLimit.of(otherPct, serverPct, cores, cores, true, limitPct));
        }
    }

    /** {@code --limits}: fixed, none, or an adaptive {@code auto[:ALGORITHM]} ({@link MaxInFlight}); one line for anything else. */
    static List<String> limits(Flags flags) {
        List<String> limits = new ArrayList<>();
        for (String name : flags.commaList("limits", List.of(FIXED))) {
            String limit = name.trim();
            if (!limit.equals(FIXED) && !limit.equals(NONE)) {
                MaxInFlight parsed = UsageError.parsing(MaxInFlight::parse, limit);
                if (parsed.algorithm() == null)
                    throw new UsageError("--limits for admission takes fixed, none and auto[:gradient2|vegas|aimd], got '" + loomylin.server.web.Params.printable(limit) + "'");
            }
            if (!limits.contains(limit)) limits.add(limit);
        }
        if (limits.isEmpty()) throw new UsageError("--limits lists nothing");
        return limits;
    }

    /** The server flags of {@code limit}, the fixed one sized at {@code size}. */
    static List<String> limitFlags(String limit, int size) {
        if (limit.equals(NONE)) return List.of();
        return List.of("--max-in-flight", limit.equals(FIXED) ? Integer.toString(size) : limit, "--max-in-flight-wait-ms", Integer.toString(MAX_WAIT_MS));
    }

    /** The loads of these kinds, in {@link Loop}'s order: one per open rate, one closed, one honouring Retry-After. */
    static List<Variant> variants(Set<Loop> loops) {
        List<Variant> v = new ArrayList<>();
        if (loops.contains(Loop.OPEN)) for (double r : OPEN_RATES) v.add(new Variant(String.format(Locale.ROOT, "open %.1fx", r), Loop.OPEN, r));
        if (loops.contains(Loop.CLOSED)) v.add(new Variant("closed " + CLOSED_CLIENTS, Loop.CLOSED, 0));
        if (loops.contains(Loop.RETRY_AFTER)) v.add(new Variant("retry-after " + CLOSED_CLIENTS, Loop.RETRY_AFTER, 0));
        return v;
    }

    /** {@code --loads}: a comma list of open, closed and retry-after (default all three). */
    static Set<Loop> loops(Flags flags) {
        Set<Loop> loops = java.util.EnumSet.noneOf(Loop.class);
        for (String name : flags.commaList("loads", java.util.Arrays.stream(Loop.values()).map(l -> l.flag).toList())) {
            Loop loop = java.util.Arrays.stream(Loop.values()).filter(l -> l.flag.equals(name)).findFirst().orElseThrow(() -> new UsageError(
                    "--loads for admission takes open, closed and retry-after, got '" + loomylin.server.web.Params.printable(name) + "'"));
            loops.add(loop);
        }
        return loops;
    }

    private AdmissionBench() {
    }

    /** The flags {@code --preset admission} reads, read once. */
    record Options(RunFlags run, List<String> pools, Set<Loop> loops, List<String> limits, int clientLimitPct) {
        static Options of(Flags flags) {
            List<String> pools = PresetOptions.poolLabels(flags, POOLS);
            Set<Loop> loops = AdmissionBench.loops(flags);
            return new Options(RunFlags.read(flags, NAME, WINDOW, REPEAT, CLOSED_CLIENTS), pools, loops, AdmissionBench.limits(flags),
                    flags.integer("client-limit", CLIENT_LIMIT_PCT, 1, 100));
        }
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        if (flags.on("rerender")) return rerender(Path.of(flags.get("out")).toAbsolutePath(), Bound.wholeSeconds(flags, NAME, WINDOW), out);
        return run(Options.of(flags), commandLine, out);
    }

    /** {@code --rerender}: admission.md's table written again from --out's admission.csv (its title, provenance and description kept), measuring nothing. */
    static Path rerender(Path dir, Duration window, PrintStream out) {
        Path csv = dir.resolve("admission.csv");
        Path md = dir.resolve("admission.md");
        if (!Files.isRegularFile(csv) || !Files.isRegularFile(md)) throw new UsageError("--rerender: no admission.csv and admission.md in " + dir);
        try {
            AdmissionReport.writeBody(dir, AdmissionReport.head(md), AdmissionReport.rows(csv), window);
        } catch (IOException | RuntimeException e) {
            throw new StartupFailure("bench: --rerender: " + e.getMessage());
        }
        out.printf("bench: rendered %s%n", md);
        return dir;
    }

    static Path run(Options o, String commandLine, PrintStream out) {
        List<String> pools = o.pools();
        Set<Loop> loops = o.loops();
        RunFlags run = o.run();
        Duration window = run.window();
        int repeat = run.repeat();
        String twin = run.twin();
        String heap = run.heap();
        int timeoutS = run.timeoutS();
        Path wrk = run.wrk().locate();
        Path oha = run.oha().locate();
        Path dir = run.dir();
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            Files.createDirectories(dir);
            Path serversLog = dir.resolve("servers.log");
            if (!Files.exists(serversLog)) Files.writeString(serversLog, "");
            Calibration calibration = Calibration.measure();
            Bound.Load cpu = Bound.loads(calibration, cores, List.of(1, CLOSED_CLIENTS, 1), pools).get(1);
            int capacity = cpu.limit() * 1000 / REQUEST_MS;
            List<Variant> variants = variants(loops);
            List<String> limits = o.limits();
            int runs = repeat * pools.size() * variants.size() * limits.size();
            out.printf(Locale.ROOT, "bench: preset %s, %d runs of %d s, about %d minutes; %s, --max-in-flight %d: sized for %d req/s; limits %s%n", NAME, runs,
                    window.toSeconds(), (runs * (window.toSeconds() + WARMUP.toSeconds() + Bound.OVERHEAD_S) + 59) / 60, cpu.pathAndQuery(), cpu.limit(),
                    capacity, String.join(", ", limits));
            Path csv = dir.resolve("admission.csv");
            int invocation = Invocations.next(csv, AdmissionReport.TABLE.header());
            List<Row> rows = new ArrayList<>(AdmissionReport.rows(csv));
            if (invocation > 1) out.printf("bench: invocation %d: its rows join the %d of %s%n", invocation, rows.size(), csv);
            int n = 0;
            for (int r = 1; r <= repeat; r++) {
                for (String pool : pools) {
                    for (Variant v : variants) for (String limit : limits) {
                        n++;
                        String started = RunResult.When.now();
                        Row row = one(invocation, r, cpu, capacity, pool, v, limit, o.clientLimitPct(), twin, heap, wrk, oha, window, timeoutS, cores, serversLog);
                        rows.add(row);
                        Files.writeString(csv, AdmissionReport.TABLE.line(new Timed<>(row, new RunResult.When(started, RunResult.When.now(), RunResult.When.load1Now()))) + "\n",
                                StandardOpenOption.APPEND);
                        out.printf(Locale.ROOT, "bench: %d/%d repeat %d %s %s %s: %s%n", n, runs, r, pool, v.name(), limit, row.failure() != null ? "N/A (" + row.failure() + ")"
                                : String.format(Locale.ROOT, "goodput %.1f req/s (%.2f of %d), 2xx p99 %s ms, %d refused, %d errors, %s%s", row.goodput(),
                                row.goodput() / capacity, capacity, loomylin.lab.engine.run.RunResult.fixed(row.okP99Ms(), 0), row.refused(), row.errors(),
                                row.recovered() ? "recovered" : "not recovered", row.idleBefore() ? "" : ", NOT IDLE BEFORE THE LOAD")
                                + (Boolean.TRUE.equals(row.split().clientLimited()) ? ", CLIENT-LIMITED" : ""));
                    }
                }
            }
            Provenance provenance = Provenance.collect(commandLine, dir, Map.of("wrk", ClientBinary.version(Client.WRK, wrk), "oha",
                    ClientBinary.version(Client.OHA, oha)), Map.of());
            provenance.write(dir, invocation);
            AdmissionReport.write(dir, provenance, invocation, cpu, capacity, rows, window);
            out.printf("bench: done; %s%n", dir.resolve("admission.md"));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    private static Row one(int invocation, int repeat, Bound.Load cpu, int capacity, String pool, Variant v, String limit, int clientLimitPct, String twin,
                           String heap, Path wrk, Path oha, Duration window, int timeoutS, int cores, Path serversLog) throws IOException {
        Files.writeString(serversLog, "=== invocation " + invocation + " repeat " + repeat + " " + pool + " " + v.name() + " " + limit + "\n", StandardOpenOption.APPEND);
        int adminPort = FreePort.pick();
        List<String> more = new ArrayList<>(List.of("--admin-port", Integer.toString(adminPort)));
        more.addAll(limitFlags(limit, cpu.limit()));
        URI unused = URI.create("http://" + ServerProcess.HOST + ":1");
        int offered = v.open() ? (int) Math.round(v.rate() * capacity) : 0;
        ServerProcess server = ServerProcess.server(List.of(), pool, twin, heap, FreePort.pick(), unused, HopClientKind.JDK, serversLog, more);
        try {
            server.awaitPool(pool, twin);
            URI metrics = URI.create("http://" + ServerProcess.HOST + ":" + adminPort + "/metrics");
            try (ProcSampler proc = new ProcSampler(ProcReader.SYSTEM, server.pid(), Bound.SAMPLE_EVERY)) {
                WrkRun.measure(wrk, server.uri(Bound.PROBE), (int) WARMUP.toSeconds(), Math.min(cpu.limit(), 50), timeoutS, cores, proc);
                boolean idle = idle(metrics);
                URI url = server.uri(cpu.pathAndQuery());
                long serverBefore = ProcReader.SYSTEM.stat(server.pid()).map(ProcStat::cpuTicks).orElse(-1L);
                Optional<CpuTimes> machineBefore = ProcReader.SYSTEM.cpuTimes();
                long startedNs = System.nanoTime();
                OhaRun.Split s = switch (v.loop()) {
                    case OPEN -> OhaRun.openSplit(oha, url, offered, window, OPEN_CONNECTIONS, timeoutS, proc);
                    case CLOSED -> OhaRun.closedSplit(oha, url, window, CLOSED_CLIENTS, timeoutS, proc);
                    case RETRY_AFTER -> RetryAfterLoop.run(url, CLOSED_CLIENTS, window, Duration.ofSeconds(timeoutS));
                };
                double seconds = (System.nanoTime() - startedNs) / 1e9;
                long serverAfter = ProcReader.SYSTEM.stat(server.pid()).map(ProcStat::cpuTicks).orElse(-1L);
                double busyPct = machineBefore.flatMap(b -> ProcReader.SYSTEM.cpuTimes().map(a -> a.busyPctSince(b))).orElse(Double.NaN);
                Split split = serverBefore < 0 || serverAfter < 0 ? Split.NONE
                        : Split.of((serverAfter - serverBefore) / (double) ProcStat.TICKS_PER_SECOND, seconds, cores, busyPct, clientLimitPct);
                double recoveryS = Bound.recovery(server);
                if (!server.alive()) return failed(invocation, repeat, pool, v, cpu.limit(), limit, offered, "server exited during the run: " + server.outputTail());
                Measured m = s.all();
                return new Row(invocation, repeat, pool, v.name(), cpu.limit(), limit, offered, m.sent(), m.ok(), m.answered() - m.ok(), s.errors(),
                        m.ok() / (double) window.toSeconds(), s.ok().p50Ms(), s.ok().p99Ms(), m.latency().p99Ms(), idle, recoveryS, split, null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(invocation, repeat, pool, v, cpu.limit(), limit, offered, "interrupted");
        } catch (StartupFailure | IllegalArgumentException | IllegalStateException e) {
            String line = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return failed(invocation, repeat, pool, v, cpu.limit(), limit, offered, line.length() > 160 ? line.substring(0, 160) + "..." : line);
        } finally {
            server.close();
        }
    }

    /** Nothing admitted (but the scrape itself, which bypasses the limit) and nothing queued, by the admin port's /metrics. */
    static boolean idle(URI metrics) {
        PrometheusText m = PrometheusText.parse(HttpGet.ok("metrics", metrics));
        double admitted = m.all("loomylin_admission_in_flight").stream().mapToDouble(PrometheusText.Sample::value).sum();
        double queued = m.all("loomylin_admission_queued").stream().mapToDouble(PrometheusText.Sample::value).sum();
        return admitted == 0 && queued == 0;
    }

    private static Row failed(int invocation, int repeat, String pool, Variant v, int size, String limit, int offered, String why) {
        return new Row(invocation, repeat, pool, v.name(), size, limit, offered, 0, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, false, Double.NaN, Split.NONE, why);
    }
}
