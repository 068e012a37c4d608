package loomylin.lab.experiment.advise;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.run.Warmth;
import loomylin.lab.engine.run.Warmup;
import loomylin.server.proc.ProcReader;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.lab.engine.run.Shapes;
import loomylin.lab.engine.run.Calibration;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.load.OhaRun;
import loomylin.lab.engine.output.Charts;
import loomylin.lab.engine.output.Progress;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.lab.engine.run.TimedRun;
import loomylin.server.cli.Durations;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.Twin;
import loomylin.server.proc.ProcLimits;
import loomylin.server.web.Limits;

/**
 * {@code loomylin advise}: the user's own request, measured. The request ({@link Profile}: CPU, wait, body) is
 * simulated on {@code /mixed}, its CPU turned into SHA-256 iterations by a {@link Calibration}, and offered open
 * loop with oha at {@link Profile#rates}, on the user's platform pool ({@code qtp:THREADS}), on {@code loom} and on
 * {@link Shapes#PREFERRED}, {@code --runs} times each, interleaved, in each of {@code --invocations} passes over the whole plan
 * (each with its own backend); each run a fresh server JVM, a warm-up at its own rate, an idle pause, then the measured
 * window. Prints {@link AdvisePage} on stdout and writes it as advise.md, with advise.csv, advise.png and
 * provenance.json, to {@code --out}; progress goes to stderr.
 */
public final class Advise {
    private Advise() {
    }

    public static final Duration WINDOW = Duration.ofSeconds(15);
    public static final Duration WARMUP = Duration.ofSeconds(5);
    /** Between a run's warm-up and its window, no load: the server JVM's CPU then is what it spends anyway. */
    public static final Duration IDLE = Duration.ofSeconds(3);
    /**
     * advise.csv's columns: the rate's multiple of the user's, the run, the idle JVM's CPU, {@link Warmth}'s, a run's
     * ({@link RunResult#TABLE}), its failure. A failed run has no result: its pool, endpoint and invocation are written all the same.
     */
    static Table<AdvisePage.Run> table(Profile profile, Endpoint endpoint) {
        List<Column<AdvisePage.Run, ?>> columns = new ArrayList<>(List.of(Column.fixed("multiple", 2, r -> (double) r.offered() / profile.rate()),
                Column.integer("run", AdvisePage.Run::round), Column.fixed("idle_cpu_ms_per_s", 2, AdvisePage.Run::idleCpuMsPerS)));
        columns.addAll(Column.of(Warmth.COLUMNS, r -> new Warmth.Of(r.warmth(), r.result() == null ? 0 : r.result().responses())));
        for (Column<RunResult, ?> c : RunResult.TABLE.columns()) {
            // Warmth's warm, written above, is advise's warm-up's; a run of TimedRun records none of its own.
            if (c == RunResult.WARM) continue;
            columns.add(c == RunResult.POOL ? Column.text("pool", r -> r.pool().toString()) : c == RunResult.ENDPOINT ? Column.text("endpoint", r -> endpoint.toString())
                    : c == RunResult.INVOCATION ? Column.integer("invocation", AdvisePage.Run::invocation) : c.of(AdvisePage.Run::result));
        }
        columns.add(Column.quoted("failure", AdvisePage.Run::failure));
        return Table.written(columns);
    }

    /** The most warm-up slices before a window: at a few hundred requests a second the JIT needs about 30 s, and 12 slices of 5 s leave it twice that. */
    public static final int MAX_WARMUP_SLICES = 12;
    /** Per run, beyond the warm-up and window: server start, settle, stop; for the estimate. */
    static final int OVERHEAD_S = 5;
    public static final String PAGE = "advise.md";
    public static final String CSV = "advise.csv";
    public static final String CHART = "advise.png";

    public static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("cpu-ms", "MS", null, "CPU per request in ms, e.g. 2 or 0.5 (required)"),
            new Flags.Flag("wait-ms", "MS", null, "blocking wait per request in whole ms: a database or downstream call (required)"),
            new Flags.Flag("rate", "REQ/S", null, "your requests per second; advise also offers 1.5x and 2x it (required)"),
            new Flags.Flag("threads", "N", null, "your platform pool's size today: Jetty's QueuedThreadPool maxThreads (required)"),
            new Flags.Flag("body-bytes", "N", "0", "response body bytes, read from a file as /mixed does"),
            new Flags.Flag("calls", "N", "0", "make the wait N consecutive downstream calls (to Loomylin's backend) instead of a sleep"),
            new Flags.Flag("window", "DURATION", "15s", "each measured window, e.g. 15s"),
            new Flags.Flag("runs", "N", "1", "runs of each pool at each rate in each invocation, interleaved; the page gives the medians over all"),
            new Flags.Flag("invocations", "N", "2", "passes over the whole plan, one after the other, each with its own backend; a point decides only on runs from 2 or more"),
            new Flags.Flag("warmup", "DURATION", "5s", "each warm-up slice, at the rate of its window: slices go on until the JIT is quiet and two cost the same"),
            new Flags.Flag("warmup-slices", "N", "2", "at least this many warm-up slices (at most " + MAX_WARMUP_SLICES + "): more show each run's cost slice by slice"),
            new Flags.Flag("out", "DIR", "advise-results", "where advise.md, advise.csv, advise.png and provenance.json go"),
            new Flags.Flag("twin", "java|kotlin", "java", "which implementation the servers run"),
            new Flags.Flag("heap", "SIZE", "512m", "fixed heap of each server JVM"),
            new Flags.Flag("timeout", "S", "20", "oha's per-request timeout in seconds; a request that takes longer counts as an error"),
            new Flags.Flag("client-limit", "PERCENT", "90", "flag a run client-limited when oha kept this share of the cores busy, or oha and the server together this share of the machine"),
            new Flags.Flag("oha", "PATH", null, "the oha binary (default: oha on PATH, else ~/.cargo/bin/oha)"),
            new Flags.Flag("java", "PATH", null, "the java the measured servers run on, e.g. a JDK 21's bin/java (default: advise's own)"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    public static String help() {
        return """
                Usage: java -jar loomylin.jar advise --cpu-ms MS --wait-ms MS --rate REQ/S --threads N [flags]

                Measures your request profile on this machine: /mixed does your CPU (as SHA-256 work), then your
                wait (a sleep, or with --calls N that many calls to Loomylin's backend), then sends your body; oha
                offers it open loop at your rate, 1.5x and 2x (and a tenth past the lowest knee it predicts, when
                that lies within 4x), on your platform pool (qtp:THREADS), on loom and on
                """ + Shapes.PREFERRED + """
                , a fresh server per pool and rate in each of --invocations (2) passes over the plan (--runs per pass),
                each warmed up at its own rate; a point decides only on unmarked runs from 2 passes. A rate past the cores
                is measured beside the rate they allow, and the page says where to cap admission. Prints one page:
                per run the achieved rate, p50/p99, CPU per request (and the JIT's and the collector's part of it), OS
                threads, memory growth and errors; each pool's knee (Little's law, the CPU, measured); a verdict
                with each pool's p99 and CPU per request; the caveats for your profile; and whether the client or
                the machine limited the measurement. About half an hour with the defaults (each warm-up waits for the JIT).
                Linux only (reads /proc); needs oha: cargo install oha --version 1.16.0 --locked

                Your own Jetty application instead of a profile: advise --app 'java -jar your-app.jar' --url URL (see advise --app --help).

                Refused with one line and exit 2: negative or malformed numbers, more connections than the
                open-file limit.

                Flags (each also settable by the environment variable shown):
                """ + Flags.describe(FLAGS);
    }

    public static void main(String[] args) {
        if (AppAdvise.asks(args)) { // your own application rather than a request profile: advise --app
            AppAdvise.main(args);
            return;
        }
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print(help());
            return;
        }
        run(flags, "java -jar loomylin.jar advise " + String.join(" ", args), System.out, System.err);
    }

    /**
     * The command's flags, read once: the request profile, the servers' java ({@code --java}; null = advise's own),
     * the windows, the servers' twin and heap, oha's timeout and binary, the client-limit rule and where results go.
     */
    public record Options(Profile profile, String java, Duration window, Duration warmup, int warmupSlices, int runs, int invocations, String twin,
                          String heap, int timeoutS, int clientLimit, String oha, Path out) {
        public static Options of(Flags flags) {
            return new Options(Profile.parse(flags.get("cpu-ms"), flags.get("wait-ms"), flags.get("rate"), flags.get("threads"), flags.get("body-bytes"),
                    flags.get("calls")), flags.get("java"), flags.duration("window", Duration.ofSeconds(1), Duration.ofMinutes(10)),
                    flags.duration("warmup", Duration.ofSeconds(1), Duration.ofMinutes(1)), flags.integer("warmup-slices", Warmup.MIN_SLICES, MAX_WARMUP_SLICES),
                    flags.integer("runs", 1, 10), flags.integer("invocations", 1, 5), flags.value("twin", Twin::parse).label(), flags.heap("heap", "512m"),
                    flags.integer("timeout", 1, 600), flags.integer("client-limit", 1, 100), flags.get("oha"), Path.of(flags.get("out")).toAbsolutePath());
        }
    }

    /** Runs advise; returns the output directory. {@code page} gets the page, {@code progress} the progress lines. */
    public static Path run(Flags flags, String commandLine, PrintStream page, PrintStream progress) {
        return run(Options.of(flags), commandLine, page, progress);
    }

    /** The same from options read already. */
    public static Path run(Options options, String commandLine, PrintStream page, PrintStream progress) {
        Profile profile = options.profile();
        if (options.java() != null) loomylin.lab.engine.run.ServerJava.choose(options.java());
        Duration window = options.window();
        Duration warmup = options.warmup();
        String twin = options.twin();
        String heap = options.heap();
        int timeoutS = options.timeoutS();
        int clientLimit = options.clientLimit();
        Flags.requireProc("advise");
        int cores = Runtime.getRuntime().availableProcessors();
        profile.checkMachine(cores, ProcLimits.openFiles(Path.of("/proc/self/limits")));
        Path oha = ClientBinary.locate(Client.OHA, options.oha() == null ? null : Path.of(options.oha()));
        List<PoolKind> pools = pools(profile);
        List<Integer> rates = profile.rates(cores);
        int total = pools.size() * rates.size() * options.runs() * options.invocations();
        long estimateS = total * (window.toSeconds() + options.warmupSlices() * warmup.toSeconds() + IDLE.toSeconds() + OVERHEAD_S);
        Path dir = options.out();
        try {
            Files.createDirectories(dir);
            Path log = dir.resolve("servers.log");
            Files.writeString(log, "");
            progress.printf(Locale.ROOT, "advise: %d runs (%s x %s req/s), at least %s (each warm-up lasts until the JIT is quiet); calibrating /mixed's CPU work%n",
                    total, pools, rates, Progress.clock(estimateS));
            Calibration calibration = Calibration.measure();
            int iterations = (int) Math.min(Limits.CPU_MAX, Math.round(profile.cpuMs() * calibration.iterationsPerMs()));
            String query = profile.query(iterations);
            Endpoint endpoint = Endpoint.parse(query);
            Provenance provenance = Provenance.collect(commandLine, dir, Map.of("oha", ClientBinary.version(Client.OHA, oha)),
                    Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS));
            provenance.write(dir);
            List<AdvisePage.Run> runs = new ArrayList<>();
            List<RunResult> rows = new ArrayList<>();
            Progress bar = new Progress(total, progress);
            Table<AdvisePage.Run> table = table(profile, endpoint);
            for (int invocation = 1; invocation <= options.invocations(); invocation++) {
                if (options.invocations() > 1) progress.printf(Locale.ROOT, "advise: invocation %d of %d%n", invocation, options.invocations());
                ServerProcess backend = profile.usesBackend() ? startBackend(dir.resolve("backend.log")) : null;
                URI backendUri = backend != null ? backend.uri("") : URI.create("http://" + ServerProcess.HOST + ":1"); // without calls /mixed calls nothing
                try {
                    for (int rate : rates) { // every pool at one rate before the next rate, rounds interleaved: drift hits every pool alike
                        for (int round = 1; round <= options.runs(); round++) {
                            for (PoolKind pool : pools) {
                                RunSpec spec = new RunSpec(pool, endpoint, profile.connections(cores), rate, Client.OHA, round);
                                Files.writeString(log, "=== " + pool + " at " + rate + " req/s, invocation " + invocation + ", run " + round + "\n",
                                        java.nio.file.StandardOpenOption.APPEND);
                                AdvisePage.Run run = one(spec, invocation, round, twin, heap, oha, window, warmup, options.warmupSlices(), timeoutS, clientLimit, cores, log,
                                        backendUri);
                                runs.add(run);
                                if (run.result() != null) {
                                    rows.add(run.result());
                                    bar.done(runs.size(), run.result());
                                } else {
                                    progress.printf("[%d/%d] %s at %d req/s FAILED: %s%n", runs.size(), total, pool, rate, run.failure());
                                }
                                Files.writeString(dir.resolve(CSV), table.text(runs));
                            }
                        }
                    }
                } finally {
                    if (backend != null) backend.close();
                }
            }
            String chart = null;
            if (Charts.write(dir, endpoint, true, pools, rows)) {
                Files.move(dir.resolve(Charts.fileName(endpoint, true)), dir.resolve(CHART), StandardCopyOption.REPLACE_EXISTING);
                chart = CHART;
            }
            String windows = windows(window, warmup, options.warmupSlices());
            String text = AdvisePage.render(profile, query, calibration.iterationsPerMs(), cores, pools, runs, windows, chart)
                    + "\nCommand: `" + commandLine + "`; files in " + provenance.out() + " (advise.csv, provenance.json).\n";
            Files.writeString(dir.resolve(PAGE), text);
            page.print(text);
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("advise: " + e.getMessage());
        }
    }

    /** The user's platform pool first, then loom and the preferred shape. */
    static List<PoolKind> pools(Profile p) {
        List<PoolKind> pools = new ArrayList<>(List.of(PoolKind.qtp(p.threads()), PoolKind.loom()));
        PoolKind preferred = PoolKind.parse(Shapes.PREFERRED);
        if (!pools.contains(preferred)) pools.add(preferred);
        return pools;
    }

    /**
     * One run on a fresh server: a warm-up at the run's own rate, {@link #IDLE} with no load (what the JVM spends
     * anyway), then the window. oha runs by time in both (-z with -q), so a pool that falls behind costs no more
     * time than one that keeps up, and the window's answers are those inside it.
     */
    private static AdvisePage.Run one(RunSpec spec, int invocation, int round, String twin, String heap, Path oha, Duration window, Duration warmup, int warmupSlices, int timeoutS,
                                      int clientLimit, int cores, Path log, URI backend) throws IOException {
        ServerProcess server = null;
        double[] idle = {Double.NaN};
        Warmup.Result[] warmed = {null};
        JvmCpu[] split = {JvmCpu.NONE};
        String started = RunResult.When.now();
        String load1 = RunResult.When.load1Now();
        try {
            for (int attempt = 1; ; attempt++) {
                server = ServerProcess.server(spec.pool().toString(), twin, heap, FreePort.pick(), backend, HopClientKind.URL, log);
                try {
                    server.awaitPool(spec.pool().toString(), twin);
                    break;
                } catch (StartupFailure e) {
                    server.close();
                    if (!server.portTaken() || attempt == 3) throw e;
                }
            }
            ServerProcess measured = server;
            RunResult r = TimedRun.run(server, spec, twin, cores, clientLimit,
                    (url, sampler) -> {
                        Measured[] last = {null};
                        warmed[0] = Warmup.run(ProcReader.SYSTEM, measured.pid(), warmupSlices, MAX_WARMUP_SLICES, () -> {
                            last[0] = OhaRun.openWindow(oha, url, spec.rate(), warmup, spec.concurrency(), timeoutS, null).all();
                            return last[0].ok();
                        });
                        idle[0] = idleCpuMsPerS(measured);
                        return last[0];
                    },
                    (url, sampler) -> {
                        JvmCpu.Snapshot before = JvmCpu.snapshot(ProcReader.SYSTEM, measured.pid());
                        Measured m = OhaRun.openWindow(oha, url, spec.rate(), window, spec.concurrency(), timeoutS, sampler).all();
                        split[0] = JvmCpu.between(before, JvmCpu.snapshot(ProcReader.SYSTEM, measured.pid()));
                        return m;
                    });
            return new AdvisePage.Run(spec.pool(), spec.rate(), invocation, round, r.inInvocation(invocation).at(new RunResult.When(started, RunResult.When.now(), load1)),
                    null, idle[0], Warmth.of(warmed[0], split[0]));
        } catch (StartupFailure | IllegalArgumentException e) {
            return new AdvisePage.Run(spec.pool(), spec.rate(), invocation, round, null, String.valueOf(e.getMessage()), Double.NaN, Warmth.NONE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("advise: interrupted");
        } finally {
            if (server != null) server.close();
        }
    }

    /** The server's CPU over {@link #IDLE} with no load, per second ({@link FixedLoad#idleCpuMsPerS}). */
    private static double idleCpuMsPerS(ServerProcess server) throws IOException {
        try {
            return FixedLoad.idleCpuMsPerS(server, IDLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** The backend the wait's calls go to: its own JVM for the whole of advise. */
    private static ServerProcess startBackend(Path log) throws IOException {
        Files.writeString(log, "");
        return ServerProcess.startedBackend(List.of(), 0, log, "/echo?delay=0&bytes=0");
    }

    /** How the windows read on the page. */
    static String windows(Duration window, Duration warmup, int leastSlices) {
        return Durations.go(window) + " windows after warm-up slices of " + Durations.go(warmup) + " at the window's own rate (until the JIT is quiet and"
                + " two slices cost the same, " + leastSlices + " to " + MAX_WARMUP_SLICES + " slices) and " + Durations.go(IDLE) + " idle";
    }
}
