package loomylin.lab.experiment.advise;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.Runner;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.load.OhaRun;
import loomylin.lab.engine.measure.HttpGet;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.lab.engine.run.Shapes;
import loomylin.server.agent.Agent;
import loomylin.server.cli.Durations;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import loomylin.server.json.Json;
import loomylin.server.proc.ProcReader;

/**
 * {@code advise --app 'java -jar your-app.jar' --url http://localhost:8080/route}: the user's own application, unmodified,
 * measured on each pool shape as an experiment of the engine ({@link Runner}). Each run starts the application
 * under Loomylin's agent ({@link AppCommand#underAgent}) on one {@link Shape}, waits until the route answers and
 * the agent has put its pool in, measures it by cost at a fixed open-loop rate ({@link FixedLoad}: warm-up until
 * the JIT is quiet and two slices cost the same, idle, window; the application's JVM's CPU from /proc, apart from
 * oha's), reads the pinned virtual threads from the agent's admin port, and stops it (SIGTERM, bounded, then kill).
 * The Little's-law shape is sized from a first short measurement on Jetty's default ({@link #probe}). The rows go
 * to advise-app.csv, the page ({@link AppPage}) to advise-app.md and stdout; {@code --rerender} writes the page from
 * the CSV alone.
 */
public final class AppAdvise {
    public static final String CSV = "advise-app.csv";
    public static final String PAGE = "advise-app.md";
    /** Between a run's warm-up and its window, no load: what the application's JVM spends anyway (at most a warm-up slice). */
    public static final Duration IDLE = Duration.ofSeconds(3);
    /** How long the agent's admin port may take to show the pool once the route answers. */
    static final Duration AGENT_WAIT = Duration.ofSeconds(10);
    /** SIGTERM's bound before the application is killed. */
    static final Duration STOP = Duration.ofSeconds(10);
    /** Per run, beyond the warm-up and window: start, settle, stop; for the estimate. */
    static final int OVERHEAD_S = 8;
    /** The Little's-law pool has this share more request threads than requests in flight. */
    public static final double HEADROOM = 1.25;
    /** The least a sized pool has: QueuedThreadPool's default minimum. */
    public static final int LEAST_THREADS = 8;

    /** The flags that send {@code advise} here rather than to the request-profile advise. */
    static final List<String> ROUTES = List.of("app", "url", "rerender");

    public static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("app", "COMMAND", null, "the command that starts your application, e.g. 'java -jar your-app.jar' (required; its first word java or a path to a java)"),
            new Flags.Flag("url", "URL", null, "the route to measure, on loopback: http://localhost:PORT/route or http://127.0.0.1:PORT/route (required)"),
            new Flags.Flag("rate", "REQ/S", "200", "the open-loop rate every shape is offered"),
            new Flags.Flag("window", "DURATION", "15s", "each measured window"),
            new Flags.Flag("warmup", "DURATION", "5s", "each warm-up slice, and the first measurement that sizes the Little's-law pool"),
            new Flags.Flag("runs", "N", "1", "runs of each shape per invocation, interleaved"),
            new Flags.Flag("invocations", "N", "2", "passes over every shape; a shape's figures from fewer than 2 are a sketch"),
            new Flags.Flag("timeout", "S", "20", "oha's per-request timeout in seconds; a request that takes longer counts as an error"),
            new Flags.Flag("client-limit", "PERCENT", "90", "mark a run client-limited when oha kept this share of the cores busy, or oha and the application this share of the machine"),
            new Flags.Flag("oha", "PATH", null, "the oha binary (default: oha on PATH, else ~/.cargo/bin/oha)"),
            new Flags.Flag("out", "DIR", "advise-app-results", "where advise-app.md, advise-app.csv, servers.log and the provenance go"),
            new Flags.Flag("rerender", null, null, "write the page again from --out's CSV (advise-app.md, or a request profile's advise.md); measures nothing"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    private AppAdvise() {
    }

    /** Whether {@code advise}'s arguments ask for this command ({@code --app}, {@code --url} or {@code --rerender}, in either spelling). */
    public static boolean asks(String[] args) {
        for (String a : args)
            for (String r : ROUTES) if (a.equals("--" + r) || a.startsWith("--" + r + "=")) return true;
        return false;
    }

    public static String help() {
        return """
                Usage: java -jar loomylin.jar advise --app 'java -jar your-app.jar' --url http://localhost:8080/your/route [flags]

                Measures your own Jetty 12.1 application (embedded Jetty, Javalin) on four pool shapes: Jetty's
                default (qtp:8-200, new QueuedThreadPool()), a platform pool sized by Little's law from a first
                short measurement on that default (request threads = 1.25 x rate x mean latency, at least one per
                core, plus Jetty's connector threads, at least 8), loom, and Jetty's preferred\s""" + Shapes.PREFERRED + """
                .
                Each run starts your command with Loomylin's agent right after its java
                (-javaagent:loomylin.jar=pool=KIND,admin=PORT), waits until --url answers 200, offers --rate open
                loop with oha (warm-up until the JIT is quiet and two slices cost the same, 3 s idle or a slice if
                shorter, the window), reads the pinned virtual threads from the agent, and stops it (SIGTERM, then
                kill after 10 s). The command runs without a shell: quotes are honoured, variables and pipes are
                not; the process it starts must be the JVM (a command that forks is refused). --url's port must
                be free before each start. Prints advise-app.md: per shape the CPU per request (your JVM's, apart
                from oha's), p99, whether the run settled or what marked it, OS threads, and the pins and where.
                Linux only (reads /proc); needs oha: cargo install oha --version 1.16.0 --locked; run from the jar.

                Flags (each also settable by the environment variable shown):
                """ + Flags.describe(FLAGS);
    }

    public static void main(String[] args) {
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h")) {
                System.out.print(help());
                return;
            }
        }
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        run(Options.of(flags), "java -jar loomylin.jar advise " + String.join(" ", args), System.out, System.err);
    }

    /** The command's flags, read once; {@code app} and {@code url} are null when only re-rendering. */
    public record Options(AppCommand app, AppUrl url, int rate, Duration window, Duration warmup, int runs, int invocations, int timeoutS,
                          int clientLimit, String oha, Path out, boolean rerender) {
        public static Options of(Flags flags) {
            boolean rerender = flags.on("rerender");
            Path out = Path.of(flags.get("out")).toAbsolutePath();
            if (rerender) return new Options(null, null, 0, Duration.ZERO, Duration.ZERO, 1, 1, 1, 1, null, out, true);
            if (flags.get("app") == null) throw new UsageError("advise --url needs --app, the command that starts your application, e.g. --app 'java -jar your-app.jar'");
            AppCommand app = AppCommand.parse(flags.get("app"));
            AppUrl url = AppUrl.parse(flags.get("url"));
            return new Options(app, url, flags.integer("rate", 200, 1, Profile.RATE_MAX), flags.duration("window", Duration.ofSeconds(15), Duration.ofSeconds(1),
                    Duration.ofMinutes(10)), flags.duration("warmup", Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofMinutes(1)),
                    flags.integer("runs", 1, 1, 10), flags.integer("invocations", 2, 1, 5), flags.integer("timeout", 20, 1, 600),
                    flags.integer("client-limit", 90, 1, 100), flags.get("oha"), out, false);
        }
    }

    /** A pool shape of the plan: its label on the page and in the CSV, and the pool the agent puts in. */
    public record Shape(String label, PoolKind pool) {
        public static final String DEFAULT = "jetty-default";
        public static final String LITTLE = "little";
        public static final String LOOM = "loom";
        public static final String PREFERRED = "jetty-preferred";
        /** Jetty's {@code new QueuedThreadPool()}: 8 to 200 threads. */
        public static final PoolKind JETTY_DEFAULT = PoolKind.parse("qtp:8-200");
    }

    /** The four shapes, the sized one from {@code sized}. */
    static List<Shape> shapes(PoolKind sized) {
        return List.of(new Shape(Shape.DEFAULT, Shape.JETTY_DEFAULT), new Shape(Shape.LITTLE, sized), new Shape(Shape.LOOM, PoolKind.loom()),
                new Shape(Shape.PREFERRED, PoolKind.parse(Shapes.PREFERRED)));
    }

    /**
     * Little's law's platform pool for {@code rate} requests a second of {@code meanMs} each: {@link #HEADROOM} times the
     * requests in flight, rounded up, at least one per core; plus what Jetty's default connector leases for its loops
     * (an acceptor, and a selector per two cores, at least one); at least {@link #LEAST_THREADS}.
     */
    public static PoolKind littlePool(int rate, double meanMs, int cores) {
        long requestThreads = Math.max(cores, (long) Math.ceil(HEADROOM * rate * meanMs / 1000));
        long connector = 1 + Math.max(1, cores / 2);
        return PoolKind.qtp((int) Math.min(PoolKind.MAX_SIZE, Math.max(LEAST_THREADS, requestThreads + connector)));
    }

    /** oha's connections: four times the requests in flight at the first measurement's mean latency, from 32 to 2,000. */
    static int connections(int rate, double meanMs) {
        return (int) Math.max(32, Math.min(2000, Math.ceil(4.0 * rate * meanMs / 1000)));
    }

    /** What sized the plan: the first measurement's mean latency, the pool it gave and oha's connections. */
    record Sizing(double meanMs, PoolKind pool, int connections) {
    }

    public static Path run(Options o, String commandLine, PrintStream page, PrintStream progress) {
        Path dir = o.out();
        if (o.rerender()) { // a request profile's directory holds advise.csv, an application's advise-app.csv
            if (!Files.exists(dir.resolve(CSV)) && !Files.exists(dir.resolve(Advise.CSV)))
                throw new UsageError("no " + Advise.CSV + " (a request profile) or " + CSV + " (an application) in " + dir + " to render a page from");
            return Files.exists(dir.resolve(CSV)) ? AppPage.rerender(dir, page, progress) : ProfileRerender.rerender(dir, page, progress);
        }
        Flags.requireProc("advise --app");
        Path agent = agentJar();
        Path oha = ClientBinary.locate(Client.OHA, o.oha() == null ? null : Path.of(o.oha()));
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            Files.createDirectories(dir);
            Path log = dir.resolve(Runner.SERVERS_LOG);
            if (!Files.exists(log)) Files.writeString(log, "");
            Sizing sizing = earlier(dir.resolve(CSV), o).orElse(null);
            if (sizing == null) {
                progress.printf(Locale.ROOT, "advise --app: a first %s measurement on Jetty's default at %d req/s, to size the Little's-law pool%n",
                        Durations.go(o.warmup()), o.rate());
                sizing = probe(o, agent, oha, log);
            } else {
                progress.printf(Locale.ROOT, "advise --app: the Little's-law pool %s from %s's first measurement (mean %.1f ms)%n", sizing.pool(), CSV, sizing.meanMs());
            }
            List<Shape> cells = shapes(sizing.pool());
            Duration idle = o.warmup().compareTo(IDLE) < 0 ? o.warmup() : IDLE; // a short warm-up asks for a short run: the idle pause no longer than a slice
            FixedLoad.Load load = new FixedLoad.Load(o.rate(), sizing.connections(), o.warmup(), idle, (int) o.window().toSeconds(), o.timeoutS());
            long perRun = (FixedLoad.MIN_SLICES + 1) * o.warmup().toSeconds() + idle.toSeconds() + o.window().toSeconds() + OVERHEAD_S;
            String intro = String.format(Locale.ROOT, "oha open loop at %d req/s over %d connections on %s, %s windows, about %d min", o.rate(),
                    sizing.connections(), o.url().given(), Durations.go(o.window()), (cells.size() * o.runs() * o.invocations() * perRun + 59) / 60);
            Sizing sized = sizing;
            Runner.Plan<AppRow> plan = new Runner.Plan<>("advise --app", dir, CSV, AppRow.TABLE, o.invocations(), o.runs(),
                    Map.of("oha", ClientBinary.version(Client.OHA, oha)), Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS), commandLine, intro);
            new Runner<>(plan, new Runner.Experiment<Shape, AppRow>() {
                @Override
                public List<Shape> cells() {
                    return cells;
                }

                @Override
                public String describe(Shape cell) {
                    return cell.label() + " " + cell.pool();
                }

                @Override
                public AppRow measure(Shape cell, Runner.Trial t) throws IOException, InterruptedException {
                    return one(o, cell, t, sized, agent, oha, load, cores);
                }

                @Override
                public AppRow failed(Shape cell, Runner.Trial t, String why) {
                    return new AppRow(t.invocation(), cell.label(), cell.pool(), t.round(), t.start(), Instant.now(), t.load1(), o.url().given(), o.app().text(),
                            sized.meanMs(), sized.connections(), 0, Double.NaN, Double.NaN, Double.NaN, "", FixedLoad.Window.none(o.rate()), why);
                }

                @Override
                public String summary(AppRow row) {
                    if (row.failed()) return "FAILED: " + row.failure();
                    return String.format(Locale.ROOT, "%.4f ms CPU per answer, p99 %.1f ms, %s pinned, %s", row.w().cpuMsPerRequest(), row.w().p99Ms(),
                            Double.isNaN(row.pinned()) ? "n/a" : Column.fixed(row.pinned(), 0), row.decides() ? "decides" : "marked: " + String.join(", ", row.marks()));
                }
            }, progress).run();
            return AppPage.rerender(dir, page, progress);
        } catch (IOException e) {
            throw new StartupFailure("advise --app: " + e.getMessage());
        }
    }

    /**
     * The sizing of an earlier call into the same {@code --out}, so that its invocations and this one's measure the
     * same pools; empty when there is none. Rows of another {@code --url} or {@code --rate} are refused.
     */
    static Optional<Sizing> earlier(Path csv, Options o) throws IOException {
        if (!Files.exists(csv)) return Optional.empty();
        List<AppRow> rows;
        try {
            rows = AppRow.TABLE.read(csv);
        } catch (RuntimeException e) {
            throw new UsageError(csv + " cannot be read as advise --app's results (" + e.getMessage() + "): give a new --out, or move it away");
        }
        for (AppRow r : rows) {
            if (!r.url().equals(o.url().given()) || r.w().offeredRps() != o.rate())
                throw new UsageError(csv + " holds runs of " + r.url() + " at " + r.w().offeredRps() + " req/s: give a new --out for " + o.url().given()
                        + " at " + o.rate() + " req/s");
        }
        return rows.stream().filter(r -> r.shape().equals(Shape.LITTLE)).findFirst().map(r -> new Sizing(r.probeMeanMs(), r.pool(), r.connections()));
    }

    /**
     * The first measurement: the application on Jetty's default shape, offered the rate for one warm-up slice; its
     * mean latency sizes the Little's-law pool. A cold JVM answers slower than a warm one, so the pool errs large.
     */
    static Sizing probe(Options o, Path agent, Path oha, Path log) throws IOException {
        Files.writeString(log, "=== first measurement, " + Shape.DEFAULT + " " + Shape.JETTY_DEFAULT + "\n", java.nio.file.StandardOpenOption.APPEND);
        Started app = start(o, agent, Shape.JETTY_DEFAULT, log);
        try {
            OhaRun.Split split = OhaRun.openWindow(oha, o.url().measured(), o.rate(), o.warmup(), Math.min(2000, Math.max(64, o.rate())), o.timeoutS(), null);
            double mean = split.all().meanMs();
            if (split.all().ok() == 0 || Double.isNaN(mean))
                throw new StartupFailure("advise --app: the first measurement got no 2xx answer from " + o.url().given() + " (" + split.all().answered()
                        + " answers, " + split.errors() + " errors): check the route in your browser or with curl");
            int cores = Runtime.getRuntime().availableProcessors();
            return new Sizing(mean, littlePool(o.rate(), mean, cores), connections(o.rate(), mean));
        } finally {
            app.stop();
        }
    }

    /** One run: start on the shape, measure, read the pins, stop. */
    static AppRow one(Options o, Shape cell, Runner.Trial t, Sizing sizing, Path agent, Path oha, FixedLoad.Load load, int cores)
            throws IOException, InterruptedException {
        Started app = start(o, agent, cell.pool(), t.log());
        try {
            ProcSampler.Peaks peaks;
            FixedLoad.Window w;
            try (ProcSampler sampler = new ProcSampler(ProcReader.SYSTEM, app.process().pid(), Duration.ofMillis(250))) {
                sampler.start();
                w = FixedLoad.measure(app.process(), o.url().measured(), oha, load, cores, o.clientLimit(), null);
                sampler.close();
                peaks = sampler.peaks();
            }
            Pins pins = app.pins();
            return new AppRow(t.invocation(), cell.label(), cell.pool(), t.round(), t.start(), Instant.now(), t.load1(), o.url().given(), o.app().text(),
                    sizing.meanMs(), sizing.connections(), peaks.threads(), peaks.rssKb() / 1024.0, pins.count(), pins.seconds(), pins.where(), w, "");
        } finally {
            app.stop();
        }
    }

    /** The application started under the agent, and the agent's admin port. */
    record Started(ServerProcess process, int adminPort) {
        /** The agent's pinned virtual threads, from its {@code /metrics}, and where they pinned most, from its {@code /pool}. */
        Pins pins() {
            try {
                PrometheusText metrics = PrometheusText.parse(HttpGet.ok("the agent's admin port", admin("/metrics")));
                double count = metrics.value("loomylin_virtual_threads_pinned_total").orElse(Double.NaN);
                double seconds = metrics.value("loomylin_virtual_threads_pinned_seconds_total").orElse(Double.NaN);
                Object where = Json.parse(HttpGet.ok("the agent's admin port", admin("/pool"))) instanceof Map<?, ?> m ? m.get("pinnedWhere") : null;
                return new Pins(count, seconds, where instanceof List<?> l ? String.join("; ", l.stream().map(String::valueOf).toList()) : "");
            } catch (StartupFailure | IllegalArgumentException e) {
                // The window was measured: a pin count the agent did not give keeps the run, with its pins unknown.
                return new Pins(Double.NaN, Double.NaN, "unread: " + e.getMessage());
            }
        }

        URI admin(String path) {
            return URI.create("http://" + AppUrl.LOOPBACK + ":" + adminPort + path);
        }

        /** SIGTERM, at most {@link #STOP}, then kill. */
        void stop() {
            process.terminate(STOP);
            process.close();
        }
    }

    /** Pinned virtual threads: how many, for how long in all, and the places they pinned most ("N x place; ..."). */
    record Pins(double count, double seconds, String where) {
    }

    /**
     * Starts the application on {@code pool}: the URL's port free first, the command with the agent in, the route
     * answering 200, the JVM started being the one that serves it (no fork), and the agent's pool in place.
     */
    static Started start(Options o, Path agent, PoolKind pool, Path log) throws IOException {
        AppUrl url = o.url();
        if (url.portTaken())
            throw new StartupFailure("port " + url.port() + " of --url is taken before your application started: another process listens there;"
                    + " stop it, or give your application and --url another port");
        int admin = FreePort.pick();
        ServerProcess process;
        try {
            process = ServerProcess.command("your application on " + pool, o.app().underAgent(agent, pool.toString(), admin), url.port(), log);
        } catch (IOException e) {
            throw new StartupFailure("could not run " + o.app().words().getFirst() + ": " + e.getMessage());
        }
        Started started = new Started(process, admin);
        try {
            process.awaitReady(url.pathAndQuery());
            List<ProcessHandle> forked = ProcessHandle.of(process.pid()).map(h -> h.children().toList()).orElse(List.of());
            if (!forked.isEmpty())
                throw new StartupFailure("your command started another process (pid " + forked.getFirst().pid() + ", "
                        + forked.getFirst().info().command().orElse("?") + "): advise --app measures the JVM it starts, so a command that forks is unsupported");
            awaitPool(started, pool);
            return started;
        } catch (RuntimeException e) {
            started.stop();
            throw e;
        }
    }

    /** Waits, at most {@link #AGENT_WAIT}, until the agent's {@code /pool} shows a server on {@code pool}; else says what the agent said. */
    static void awaitPool(Started app, PoolKind pool) {
        long deadline = System.nanoTime() + AGENT_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (Json.parse(HttpGet.ok("the agent's admin port", app.admin("/pool"))) instanceof Map<?, ?> m && m.get("servers") instanceof List<?> servers
                        && servers.stream().anyMatch(s -> s instanceof Map<?, ?> f && pool.toString().equals(f.get("kind")))) return;
            } catch (StartupFailure e) {
                // not listening yet: the agent starts its admin port with the first server it swaps
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupFailure("interrupted");
            }
        }
        throw new StartupFailure("the agent put no " + pool + " pool into your application within " + AGENT_WAIT.toSeconds() + " s: " + agentLines(app.process()));
    }

    /** What the agent said in this run, on one line. */
    static String agentLines(ServerProcess process) {
        try {
            List<String> lines = process.output().lines().filter(l -> l.startsWith(Agent.PREFIX)).toList();
            return lines.isEmpty() ? "it said nothing (no Jetty 12.1 Server was built?); the application's last lines: " + process.outputTail() : String.join(" | ", lines);
        } catch (IOException e) {
            return "(its output is unreadable: " + e.getMessage() + ")";
        }
    }

    /** The jar this command runs from: it is also the agent. Run from classes (a build's tests), there is none. */
    static Path agentJar() {
        try {
            Path p = Path.of(AppAdvise.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(".jar")) return p;
            throw new StartupFailure("advise --app runs from loomylin.jar, which is also the agent (java -jar target/loomylin.jar advise --app ...); this runs from " + p);
        } catch (java.net.URISyntaxException | RuntimeException e) {
            if (e instanceof StartupFailure s) throw s;
            throw new StartupFailure("advise --app: cannot tell which jar it runs from (" + e.getMessage() + ")");
        }
    }
}
