package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.FixedLoad;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import loomylin.lab.engine.run.Calibration;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.load.ClientTool;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Progress;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.Twin;
import loomylin.server.web.Limits;

/**
 * {@code bench --preset crossover}: where virtual threads pay off, measured by cost at a fixed load. Each
 * {@link Grid.Cell} is offered one open-loop rate ({@link Grid#rate}, a share of what the machine is estimated to
 * serve of it). First, once per {@code --out}, a sweep: one run on each platform pool of {@link Grid#sweep}, from
 * which {@link CrossoverReport#best} picks the pool a user would size for that load. Then {@code --repeat} rounds,
 * interleaved, of the virtual-thread pools ({@code --pools}, default {@code loom}), {@code qtp:200} (a fixed pool at Jetty's default maximum of threads, pre-started)
 * and the sweep's pick; each pool runs twice in an invocation, so that its two runs are an A/A pair from which the
 * report reads the noise. Every run is a {@link FixedLoad} run on a fresh server JVM. Invocations add up in one
 * {@code --out}; a later one reuses the sweep.
 */
public final class Crossover {
    public static final String NAME = "crossover";
    /** The share of a cell's estimated capacity it is offered. */
    public static final double SHARE = 0.5;
    public static final int MEASURE_S = 20;
    public static final int SWEEP_MEASURE_S = 10;
    public static final Duration SLICE = Duration.ofSeconds(5);
    public static final Duration IDLE = Duration.ofSeconds(5);
    public static final int REPEAT = 2;
    public static final String HEAP = "512m";
    /** Per run, beyond its warm-up and window: server start, settle, stop; for the estimate printed at the start. */
    public static final int OVERHEAD_S = 5;
    /** The bench flags this preset reads; the bench refuses any other given with it. */
    public static final Set<String> FLAGS = Set.of("preset", "cells", "share", "rate", "pools", "measure", "warmup", "repeat", "twin", "heap", "timeout",
            "client-limit", "oha", "out", "rerender", "help");
    public static final String CSV = "crossover.csv";
    public static final String REPORT = "crossover.md";

    /** What a run is for: the sweep that picks a platform pool, or the repeated comparison. */
    public enum Phase {
        SWEEP("sweep"), COMPARE("compare");

        public final String label;

        Phase(String label) {
            this.label = label;
        }

        static Phase parse(String s) {
            return s.equals("sweep") ? SWEEP : COMPARE;
        }
    }

    /** Who a comparison run is: a virtual-thread pool under test, {@code qtp:200} (a fixed pool at Jetty's default maximum), or the sweep's pick. */
    public enum Role {
        SWEEP("sweep"), VIRTUAL("virtual"), DEFAULT("default"), BEST("best");

        public final String label;

        Role(String label) {
            this.label = label;
        }

        static Role parse(String s) {
            for (Role r : values()) if (r.label.equals(s)) return r;
            throw new IllegalArgumentException("unknown role '" + s + "'");
        }
    }

    /** {@code qtp:200}: a fixed pool at Jetty's default maximum of threads, pre-started; near what a user runs without choosing. */
    public static final PoolKind DEFAULT_POOL = PoolKind.qtp(200);

    /** One run: the cell, the load, who served it, what it measured; {@code failure} non-empty when it measured nothing. */
    public record Row(int invocation, Grid.Cell cell, int iterations, int connections, Phase phase, Role role, PoolKind pool, int round, Instant start,
                      Instant end, double load1, FixedLoad.Window w, String failure) {
        private static final Column<Row, Integer> INVOCATION = Column.integer(Invocations.COLUMN, Row::invocation);
        private static final Column<Row, Grid.Cell> CELL = new Column<>("cell", Row::cell, Grid.Cell::label, Grid.Cell::parse, null);
        private static final Column<Row, Integer> ITERATIONS = Column.integer("cpu_iterations", Row::iterations);
        private static final Column<Row, Integer> CONNECTIONS = Column.integer("connections", Row::connections);
        private static final Column<Row, Phase> PHASE = new Column<>("phase", Row::phase, p -> p.label, Phase::parse, null);
        private static final Column<Row, Role> ROLE = new Column<>("role", Row::role, r -> r.label, Role::parse, null);
        private static final Column<Row, PoolKind> POOL = Column.pool("pool", Row::pool);
        private static final Column<Row, Integer> ROUND = Column.integer("round", Row::round);
        private static final Column<Row, Instant> START = Column.instant("start", Row::start);
        private static final Column<Row, Instant> END = Column.instant("end", Row::end);
        private static final Column<Row, Double> LOAD1 = Column.fixed("load1", 2, Row::load1);
        private static final Column<Row, String> FAILURE = Column.quoted("failure", Row::failure);
        /** crossover.csv: the run, its cell spelled out (the wait and CPU the cell's label names), its window, its failure. */
        public static final Table<Row> TABLE = new Table<>(java.util.stream.Stream.of(List.of(INVOCATION, CELL,
                        Column.<Row>text("wait", r -> r.cell.kind().label), Column.<Row>integer("wait_ms", r -> r.cell.waitMs()),
                        Column.<Row>text("cpu_ms", r -> Grid.number(r.cell.cpuMs())), ITERATIONS, CONNECTIONS, PHASE, ROLE, POOL, ROUND, START, END, LOAD1),
                Column.of(FixedLoad.Window.COLUMNS, Row::w), List.of(FAILURE)).<Column<Row, ?>>flatMap(List::stream).toList(), Row::read);

        private static Row read(Table.Fields f) {
            return new Row(f.get(INVOCATION), f.get(CELL), f.get(ITERATIONS), f.get(CONNECTIONS), f.get(PHASE), f.get(ROLE), f.get(POOL), f.get(ROUND),
                    f.get(START), f.get(END), f.get(LOAD1), FixedLoad.Window.read(f), f.get(FAILURE));
        }

        public boolean failed() {
            return !failure.isEmpty();
        }

        public boolean decides() {
            return !failed() && w.decides();
        }

        /** Server CPU per answer over the window. */
        public double cpuMs() {
            return w.cpuMsPerRequest();
        }
    }

    /** The runs' settings, read once from the bench's flags. */
    record Settings(List<Grid.Cell> cells, double share, Integer rate, List<PoolKind> virtual, int measureS, Duration slice, int repeat, String twin,
                    String heap, int timeoutS, int clientLimitPct, ClientTool ohaTool, Path out) {
        static Settings of(Flags flags) {
            List<Grid.Cell> cells = new ArrayList<>();
            for (String c : flags.commaList("cells", Grid.CELLS.stream().map(Grid.Cell::label).toList())) {
                Grid.Cell cell = UsageError.parsing(Grid.Cell::parse, c);
                if (!cells.contains(cell)) cells.add(cell);
            }
            if (cells.isEmpty()) throw new UsageError("--cells lists nothing");
            double share = SHARE;
            if (flags.get("share") != null) {
                try {
                    share = Double.parseDouble(flags.get("share").trim());
                } catch (NumberFormatException e) {
                    share = Double.NaN;
                }
                if (!(share > 0 && share <= 1)) throw new UsageError("--share takes a share of the machine's estimated capacity above 0 and at most 1, such as 0.5");
            }
            Integer rate = flags.get("rate") == null ? null : flags.integer("rate", 1, 100_000);
            List<PoolKind> virtual = new ArrayList<>();
            for (String p : flags.commaList("pools", List.of("loom"))) {
                PoolKind kind = UsageError.parsing(PoolKind::parse, p);
                if (!virtual.contains(kind)) virtual.add(kind);
            }
            if (virtual.isEmpty()) throw new UsageError("--pools lists nothing");
            int measureS = flags.get("measure") == null ? MEASURE_S : flags.integer("measure", 1, 600);
            Duration slice = flags.get("warmup") == null ? SLICE : flags.duration("warmup", Duration.ofSeconds(1), Duration.ofMinutes(1));
            int repeat = flags.get("repeat") == null ? REPEAT : flags.integer("repeat", 1, 20);
            return new Settings(cells, share, rate, virtual, measureS, slice, repeat, flags.value("twin", Twin::parse).label(), flags.heap("heap", HEAP),
                    flags.integer("timeout", 1, 600), flags.integer("client-limit", 1, 100),
                    new ClientTool(Client.OHA, flags.get("oha") == null ? null : Path.of(flags.get("oha"))), Path.of(flags.get("out")).toAbsolutePath());
        }

        /** oha, found on the machine (a one-line usage error when it is not). */
        Path oha() {
            return ohaTool.locate();
        }

        int rateOf(Grid.Cell cell, int cores) {
            return rate != null ? rate : Grid.rate(cell, share, cores);
        }

        Duration idle() {
            return slice.compareTo(IDLE) < 0 ? slice : IDLE;
        }

        int sweepMeasureS() {
            return Math.min(measureS, SWEEP_MEASURE_S);
        }
    }

    private Crossover() {
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        Path dir = Path.of(flags.get("out")).toAbsolutePath();
        if (flags.on("rerender")) return CrossoverReport.rerender(dir, out);
        Flags.requireProc("the bench");
        Settings s = Settings.of(flags);
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            Files.createDirectories(dir);
            Path csv = dir.resolve(CSV);
            int invocation = Invocations.next(csv, Row.TABLE.header());
            List<Row> earlier = Row.TABLE.read(csv);
            Path log = dir.resolve("servers.log");
            if (!Files.exists(log)) Files.writeString(log, "");
            out.printf("bench: preset %s, invocation %d, calibrating /mixed's CPU work%n", NAME, invocation);
            Calibration calibration = Calibration.measure();
            List<Grid.Cell> toSweep = s.cells().stream().filter(c -> earlier.stream().noneMatch(r -> r.phase() == Phase.SWEEP && r.cell().equals(c))).toList();
            int sweepRuns = toSweep.stream().mapToInt(c -> Grid.sweep(c, s.rateOf(c, cores), cores).size()).sum();
            int compareRuns = s.cells().size() * s.repeat() * (s.virtual().size() + 2);
            long perRun = (FixedLoad.MIN_SLICES * s.slice().toSeconds()) + OVERHEAD_S;
            long estimate = sweepRuns * (perRun + s.sweepMeasureS()) + compareRuns * (perRun + s.idle().toSeconds() + s.measureS());
            out.printf(Locale.ROOT, "bench: %d cells, a sweep of %d runs, then %d rounds of %s, qtp:200 and the sweep's pick: at most %d runs of %d s after settled"
                            + " warm-up slices of %d s, about %d minutes; %.0f SHA-256 iterations per ms -> %s%n", s.cells().size(), sweepRuns, s.repeat(),
                    s.virtual(), sweepRuns + compareRuns, s.measureS(), s.slice().toSeconds(), (estimate + 59) / 60, calibration.iterationsPerMs(), dir);
            Provenance.collect(commandLine, dir, Map.of("oha", ClientBinary.version(Client.OHA, s.oha())),
                    Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS)).write(dir, invocation);
            boolean calls = s.cells().stream().anyMatch(c -> c.kind() == Grid.Wait.CALL && c.waitMs() > 0);
            if (calls && !Files.exists(dir.resolve("backend.log"))) Files.writeString(dir.resolve("backend.log"), "");
            ServerProcess backend = calls ? ServerProcess.startedBackend(List.of(), 0, dir.resolve("backend.log"), "/echo?delay=0&bytes=0") : null;
            URI backendUri = backend != null ? backend.uri("") : URI.create("http://" + ServerProcess.HOST + ":1"); // a sleep calls nothing
            List<Row> rows = new ArrayList<>(earlier);
            Progress progress = new Progress(sweepRuns + compareRuns, out);
            int done = 0;
            try {
                for (Grid.Cell cell : s.cells()) {
                    int rate = s.rateOf(cell, cores);
                    int iterations = (int) Math.min(Limits.CPU_MAX, Math.round(cell.cpuMs() * calibration.iterationsPerMs()));
                    Context at = new Context(invocation, cell, iterations, rate, Grid.connections(cell, rate), backendUri, log, csv, cores);
                    if (toSweep.contains(cell)) {
                        for (PoolKind pool : Grid.sweep(cell, rate, cores)) {
                            rows.add(one(at, Phase.SWEEP, Role.SWEEP, pool, 1, s.sweepMeasureS(), Duration.ZERO, s));
                            report(out, ++done, progress, rows.getLast());
                        }
                    }
                    PoolKind best = CrossoverReport.best(rows, cell).orElse(Grid.sized(cell, rate, cores));
                    for (int round = 1; round <= s.repeat(); round++) {
                        for (PoolKind v : s.virtual()) {
                            rows.add(one(at, Phase.COMPARE, Role.VIRTUAL, v, round, s.measureS(), s.idle(), s));
                            report(out, ++done, progress, rows.getLast());
                        }
                        rows.add(one(at, Phase.COMPARE, Role.DEFAULT, DEFAULT_POOL, round, s.measureS(), s.idle(), s));
                        report(out, ++done, progress, rows.getLast());
                        if (!best.equals(DEFAULT_POOL)) {
                            rows.add(one(at, Phase.COMPARE, Role.BEST, best, round, s.measureS(), s.idle(), s));
                            report(out, ++done, progress, rows.getLast());
                        }
                    }
                }
            } finally {
                if (backend != null) backend.close();
            }
            return CrossoverReport.rerender(dir, out);
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    private static void report(PrintStream out, int done, Progress progress, Row row) {
        out.printf(Locale.ROOT, "[%d/%d] %s %s %s %s round %d: %s%n", done, progress.total(), row.cell().label(), row.phase().label, row.role().label,
                row.pool(), row.round(), row.failed() ? "FAILED: " + row.failure()
                        : String.format(Locale.ROOT, "%.4f ms CPU per answer, p99 %.1f ms, %s%s", row.w().cpuMsPerRequest(), row.w().p99Ms(),
                        row.decides() ? "decides" : "does not decide (" + String.join(", ", row.w().marks()) + ")", progress.eta(done)));
    }

    /** What every run of a cell in this invocation shares. */
    private record Context(int invocation, Grid.Cell cell, int iterations, int rate, int connections, URI backend, Path log, Path csv, int cores) {
    }

    /** One run on a fresh server; a server that will not start or an oha that fails is a failed row, not the end of the grid. */
    private static Row one(Context at, Phase phase, Role role, PoolKind pool, int round, int measureS, Duration idle, Settings s) throws IOException {
        Files.writeString(at.log(), "=== " + at.cell().label() + " " + phase.label + " " + pool + " invocation " + at.invocation() + " round " + round + "\n",
                StandardOpenOption.APPEND);
        Instant start = Instant.now();
        double load1 = FixedLoad.load1();
        ServerProcess server = null;
        Row row;
        try {
            server = start(pool, s, at);
            URI url = server.uri("/" + at.cell().endpoint(at.iterations()));
            FixedLoad.Window w = FixedLoad.measure(server, url, s.oha(), new FixedLoad.Load(at.rate(), at.connections(), s.slice(), idle, measureS,
                    s.timeoutS()), at.cores(), s.clientLimitPct(), null);
            row = new Row(at.invocation(), at.cell(), at.iterations(), at.connections(), phase, role, pool, round, start, Instant.now(), load1, w, "");
        } catch (StartupFailure | IllegalArgumentException e) {
            String line = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            row = new Row(at.invocation(), at.cell(), at.iterations(), at.connections(), phase, role, pool, round, start, Instant.now(), load1,
                    FixedLoad.Window.none(at.rate()), line.length() > 200 ? line.substring(0, 200) + "..." : line);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("bench: interrupted");
        } finally {
            if (server != null) server.close();
        }
        Files.writeString(at.csv(), Row.TABLE.line(row) + "\n", StandardOpenOption.APPEND);
        return row;
    }

    private static ServerProcess start(PoolKind pool, Settings s, Context at) throws IOException {
        for (int attempt = 1; ; attempt++) {
            ServerProcess server = ServerProcess.server(pool.toString(), s.twin(), s.heap(), FreePort.pick(), at.backend(), HopClientKind.URL, at.log());
            try {
                server.awaitPool(pool.toString(), s.twin());
                return server;
            } catch (StartupFailure e) {
                server.close();
                if (!server.portTaken() || attempt == 3) throw e;
            }
        }
    }
}
