package loomylin.lab.experiment.bound;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import loomylin.lab.engine.Runner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import loomylin.lab.engine.run.ClientLimit;
import loomylin.lab.engine.run.CpuSplit;
import loomylin.server.jetty.MaxInFlight;
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
 * starts otherwise is marked and decides nothing). Over it: where the machine's CPU went ({@link CpuSplit}: the server
 * JVM's, the load generator's own, oha's or, for the Retry-After loop, this JVM's, and the machine's busy share), marked
 * by the engine's rules at {@code --client-limit}. After it: probes until the server answers promptly
 * ({@link Bound#recovery}). The runs are the {@link Runner}'s: repeats are its rounds, so every pool, load and limit
 * runs once before the next repeat.
 *
 * <p>The goal of an open-loop run: goodput (2xx answers per second of the window) at least {@link #GOAL} of the
 * sized capacity, and the 2xx answers' p99 under the limit's wait plus the request's own time. Writes
 * admission.csv (a row per run, as it goes), admission.md and provenance.json; run again with the same
 * {@code --out}, its rows join the earlier ones as the next invocation ({@link Invocations}).
 */
public final class AdmissionBench {
    public static final String NAME = "admission";
    static final String CSV = "admission.csv";
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
    static final int CLIENT_LIMIT_PCT = ClientLimit.DEFAULT_PCT;

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
     * window's end aborted; {@code idleBefore}: nothing admitted or queued when the load began; {@code split}: where the
     * machine's CPU went over the load, and its marks ({@link CpuSplit}; {@link CpuSplit#NONE} in runs from before it).
     */
    record Row(int invocation, int repeat, String pool, String variant, int limit, String limitKind, int offered, long sent, long ok, long refused, long errors,
               double goodput, double okP50Ms, double okP99Ms, double allP99Ms, boolean idleBefore, double recoveryS, CpuSplit split, String failure) {

        boolean recovered() {
            return !Double.isNaN(recoveryS);
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
        Path csv = dir.resolve(CSV);
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

    /** One run's what: a pool shape, one load, behind one limit. */
    record Cell(String pool, Variant variant, String limit) {
        /** The requests per second an open loop offers at {@code capacity}; 0 for a closed loop. */
        int offered(int capacity) {
            return variant.open() ? (int) Math.round(variant.rate() * capacity) : 0;
        }
    }

    /**
     * Calibrates the request and its limit (each invocation anew: rows keep the limit they were sized with), runs
     * every pool, load and limit on the {@link Runner} (repeats as its rounds), then writes admission.md from every
     * row of admission.csv, earlier invocations' too.
     */
    static Path run(Options o, String commandLine, PrintStream out) {
        RunFlags run = o.run();
        Duration window = run.window();
        Path wrk = run.wrk().locate();
        Path oha = run.oha().locate();
        Path dir = run.dir();
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            Calibration calibration = Calibration.measure();
            Bound.Load cpu = Bound.loads(calibration, cores, List.of(1, CLOSED_CLIENTS, 1), o.pools()).get(1);
            int capacity = cpu.limit() * 1000 / REQUEST_MS;
            List<Cell> cells = new ArrayList<>();
            for (String pool : o.pools()) for (Variant v : variants(o.loops())) for (String limit : o.limits()) cells.add(new Cell(pool, v, limit));
            Map<String, String> tools = Map.of("wrk", ClientBinary.version(Client.WRK, wrk), "oha", ClientBinary.version(Client.OHA, oha));
            String intro = String.format(Locale.ROOT, "%d s windows, about %d minutes; %s, --max-in-flight %d: sized for %d req/s; limits %s", window.toSeconds(),
                    (cells.size() * run.repeat() * (window.toSeconds() + WARMUP.toSeconds() + Bound.OVERHEAD_S) + 59) / 60, cpu.pathAndQuery(), cpu.limit(), capacity,
                    String.join(", ", o.limits()));
            Runner.Plan<Timed<Row>> plan = new Runner.Plan<>("preset " + NAME, dir, CSV, AdmissionReport.TABLE, 1, run.repeat(), tools, RunFlags.CPU_SETS,
                    commandLine, intro);
            List<Timed<Row>> made = new Runner<>(plan, new Runner.Experiment<Cell, Timed<Row>>() {
                @Override
                public List<Cell> cells() {
                    return cells;
                }

                @Override
                public String describe(Cell cell) {
                    return cell.pool() + " " + cell.variant().name() + " " + cell.limit();
                }

                @Override
                public Timed<Row> measure(Cell cell, Runner.Trial t) throws IOException, InterruptedException {
                    return new Timed<>(one(t, cell, cpu, capacity, o.clientLimitPct(), run, wrk, oha, cores), RunResult.When.since(t.start(), t.load1()));
                }

                @Override
                public Timed<Row> failed(Cell cell, Runner.Trial t, String why) {
                    return new Timed<>(AdmissionBench.failed(t, cell, cpu.limit(), capacity, RunFlags.failure(why)), RunResult.When.since(t.start(), t.load1()));
                }

                @Override
                public String summary(Timed<Row> timed) {
                    Row row = timed.row();
                    return (row.failure() != null ? "N/A (" + row.failure() + ")" : String.format(Locale.ROOT,
                            "goodput %.1f req/s (%.2f of %d), 2xx p99 %s ms, %d refused, %d errors, %s%s", row.goodput(), row.goodput() / capacity, capacity,
                            RunResult.fixed(row.okP99Ms(), 0), row.refused(), row.errors(), row.recovered() ? "recovered" : "not recovered",
                            row.idleBefore() ? "" : ", NOT IDLE BEFORE THE LOAD")) + (row.split().marked() ? ", MARKED: " + row.split().why() : "");
                }
            }, out).run();
            // The report's provenance is read as the run ends, as it always was; provenance.json keeps the Runner's, read as it began.
            AdmissionReport.write(dir, Provenance.collect(commandLine, dir, tools, RunFlags.CPU_SETS), made.getFirst().row().invocation(), cpu, capacity,
                    AdmissionReport.rows(dir.resolve(CSV)), window);
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
        out.printf("bench: done; %s%n", dir.resolve("admission.md"));
        return dir;
    }

    /** One run on a fresh server JVM: warm-up under the limit, the idle check, the load with the CPU split over it, then the recovery. */
    private static Row one(Runner.Trial t, Cell cell, Bound.Load cpu, int capacity, int clientLimitPct, RunFlags run, Path wrk, Path oha, int cores)
            throws IOException, InterruptedException {
        int adminPort = FreePort.pick();
        List<String> more = new ArrayList<>(List.of("--admin-port", Integer.toString(adminPort)));
        more.addAll(limitFlags(cell.limit(), cpu.limit()));
        URI unused = URI.create("http://" + ServerProcess.HOST + ":1");
        Duration window = run.window();
        int timeoutS = run.timeoutS();
        String pool = cell.pool();
        ServerProcess server = ServerProcess.server(List.of(), pool, run.twin(), run.heap(), FreePort.pick(), unused, HopClientKind.JDK, t.log(), more);
        try {
            server.awaitPool(pool, run.twin());
            URI metrics = URI.create("http://" + ServerProcess.HOST + ":" + adminPort + "/metrics");
            try (ProcSampler proc = new ProcSampler(ProcReader.SYSTEM, server.pid(), Bound.SAMPLE_EVERY)) {
                WrkRun.measure(wrk, server.uri(Bound.PROBE), (int) WARMUP.toSeconds(), Math.min(cpu.limit(), 50), timeoutS, cores, proc);
                boolean idle = idle(metrics);
                URI url = server.uri(cpu.pathAndQuery());
                // The client's own CPU: oha's process, or, for the Retry-After loop, which runs in this JVM, this JVM's.
                CpuSplit.Watch watch = CpuSplit.watch(server.pid());
                OhaRun.Split s = switch (cell.variant().loop()) {
                    case OPEN -> OhaRun.openSplit(oha, url, cell.offered(capacity), window, OPEN_CONNECTIONS, timeoutS, proc);
                    case CLOSED -> OhaRun.closedSplit(oha, url, window, CLOSED_CLIENTS, timeoutS, proc);
                    case RETRY_AFTER -> RetryAfterLoop.run(url, CLOSED_CLIENTS, window, Duration.ofSeconds(timeoutS));
                };
                CpuSplit split = watch.end(s.all().clientCpuS(), cores, clientLimitPct);
                double recoveryS = Bound.recovery(server);
                if (!server.alive()) return failed(t, cell, cpu.limit(), capacity, "server exited during the run: " + server.outputTail());
                Measured m = s.all();
                return new Row(t.invocation(), t.round(), pool, cell.variant().name(), cpu.limit(), cell.limit(), cell.offered(capacity), m.sent(), m.ok(),
                        m.answered() - m.ok(), s.errors(), m.ok() / (double) window.toSeconds(), s.ok().p50Ms(), s.ok().p99Ms(), m.latency().p99Ms(), idle,
                        recoveryS, split, null);
            }
        } catch (IllegalStateException e) {
            // A load generator's output it could not read: this run measured nothing, the next ones may.
            return failed(t, cell, cpu.limit(), capacity, RunFlags.failure(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
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

    private static Row failed(Runner.Trial t, Cell cell, int size, int capacity, String why) {
        return new Row(t.invocation(), t.round(), cell.pool(), cell.variant().name(), size, cell.limit(), cell.offered(capacity), 0, 0, 0, 0, 0, Double.NaN,
                Double.NaN, Double.NaN, false, Double.NaN, CpuSplit.NONE, why);
    }
}
