package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.run.Shapes;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.lab.engine.Runner;
import loomylin.lab.engine.output.Invocations;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.jetty.Twin;

/**
 * {@code bench --preset floor}: what each layer under a Loomylin request costs, by CPU per answer at one fixed
 * open-loop rate well inside the machine. The same no-wait request ({@link #LOOMYLIN_ENDPOINT}, which neither
 * sleeps nor yields) on each {@link Layer}, from a bare Jetty {@code Handler} up to a Loomylin server, on each
 * pool; oha offers {@code --rate} over {@link #CONNECTIONS} connections. Per run, in a fresh server JVM: warm-up
 * slices of {@link #SLICE} ({@code --warmup}) at the same rate until two in a row cost the same within {@link #SETTLE_SHARE} (at
 * least {@link #MIN_SLICES}, at most {@link #MAX_SLICES}: else the run is unsettled), {@link #IDLE} with no load
 * (the CPU the JVM spends anyway), then the measured window. A run decides only when it settled, the rate was met,
 * nothing failed and the client was not the limit ({@link ClientLimit}); {@link FloorReport} says which did not.
 * Rounds are interleaved (every layer on every pool, then the next round) and an invocation's rows join the
 * earlier ones in the same {@code --out} ({@link Invocations}). With {@code --jfr} each window is recorded and its
 * samples split by whose code they ran in ({@link CodeOwners}).
 */
public final class Floor {
    public static final String NAME = "floor";
    public static final List<String> POOLS = List.of("qtp:200", "loom", Shapes.PREFERRED);
    public static final String LOOMYLIN_ENDPOINT = "/wait-blocking?ms=0";
    public static final int RATE = 4000;
    public static final int CONNECTIONS = 16;
    public static final int MEASURE_S = 30;
    public static final Duration SLICE = Duration.ofSeconds(5);
    public static final Duration IDLE = Duration.ofSeconds(5);
    public static final int REPEAT = 2;
    public static final String HEAP = "512m";
    /** The header cache of the {@link Layer#LOOMYLIN_CACHE} layer: Jetty's default. */
    public static final int CACHE_LAYER_HEADER_CACHE = ServerOptions.JETTY_HEADER_CACHE;
    /** The bench flags this preset reads; the bench refuses any other given with it. */
    public static final Set<String> FLAGS = Set.of("preset", "pools", "layers", "rate", "concurrency", "measure", "warmup", "repeat", "twin", "heap",
            "timeout", "client-limit", "oha", "jfr", "out", "rerender", "help");
    public static final String CSV = "floor.csv";
    public static final String REPORT = "floor.md";
    public static final String RECORDINGS = "jfr";

    /** What serves the request, each layer one step more of what a Loomylin server has. */
    public enum Layer {
        /** {@code bare-jetty}: a Jetty Handler answering 200 "ok", Jetty's connector and HTTP configuration. */
        JETTY("bare-jetty"),
        /** {@code bare-jetty --connector loomylin}: the same Handler behind a Loomylin server's connector and HTTP configuration. */
        CONNECTOR("jetty+connector"),
        /** {@code bare-jetty --framework javalin}: a Javalin route with Javalin's defaults on Jetty's connector. */
        JAVALIN("bare-javalin"),
        /** A Loomylin server with its default flags: every handler of its chain, its connector, its route. */
        LOOMYLIN("loomylin"),
        /** The same with Jetty's default header cache ({@code --header-cache 1024}). */
        LOOMYLIN_CACHE("loomylin+header-cache");

        public final String label;

        Layer(String label) {
            this.label = label;
        }

        public static Layer parse(String text) {
            for (Layer l : values()) if (l.label.equals(text.trim())) return l;
            throw new IllegalArgumentException("unknown layer '" + loomylin.server.web.Params.printable(text) + "' (one of "
                    + String.join(", ", java.util.Arrays.stream(values()).map(l -> l.label).toList()) + ")");
        }
    }

    /** One run: what it asked and what it measured; {@code failure} non-empty when it measured nothing. */
    public record Row(int invocation, Layer layer, PoolKind pool, int round, Instant start, Instant end, double load1, FixedLoad.Window w,
                      String failure) {
        private static final Column<Row, Integer> INVOCATION = Column.integer(Invocations.COLUMN, Row::invocation);
        private static final Column<Row, Layer> LAYER = new Column<>("layer", Row::layer, l -> l.label, Layer::parse, null);
        private static final Column<Row, PoolKind> POOL = Column.pool("pool", Row::pool);
        private static final Column<Row, Integer> ROUND = Column.integer("round", Row::round);
        private static final Column<Row, Instant> START = Column.instant("start", Row::start);
        private static final Column<Row, Instant> END = Column.instant("end", Row::end);
        private static final Column<Row, Double> LOAD1 = Column.fixed("load1", 2, Row::load1);
        private static final Column<Row, String> FAILURE = Column.quoted("failure", Row::failure);
        /** floor.csv: the run, its window, its failure. */
        public static final Table<Row> TABLE = new Table<>(java.util.stream.Stream.of(List.of(INVOCATION, LAYER, POOL, ROUND, START, END, LOAD1),
                Column.of(FixedLoad.Window.COLUMNS, Row::w), List.of(FAILURE)).<Column<Row, ?>>flatMap(List::stream).toList(), Row::read);

        private static Row read(Table.Fields f) {
            return new Row(f.get(INVOCATION), f.get(LAYER), f.get(POOL), f.get(ROUND), f.get(START), f.get(END), f.get(LOAD1), FixedLoad.Window.read(f),
                    f.get(FAILURE));
        }

        public boolean failed() {
            return !failure.isEmpty();
        }

        public double cpuMsPerRequest() {
            return w.cpuMsPerRequest();
        }

        public double netCpuMsPerRequest() {
            return w.netCpuMsPerRequest();
        }

        /** Whether this run may decide anything. */
        public boolean decides() {
            return !failed() && w.decides();
        }
    }

    private Floor() {
    }

    /** The flags {@code --preset floor} reads, read once; {@code oha} is null when only re-rendering. */
    record Options(PresetOptions common, boolean rerender, List<PoolKind> pools, List<Layer> layers, int rate, int connections, int measureS,
                   int rounds, Duration slice, int clientLimit, boolean jfr, loomylin.lab.engine.load.ClientTool oha) {
        static Options of(Flags flags) {
            PresetOptions common = PresetOptions.of(flags, HEAP);
            boolean rerender = flags.on("rerender");
            List<PoolKind> pools = PresetOptions.pools(flags, POOLS);
            List<Layer> layers = new ArrayList<>();
            for (String l : flags.commaList("layers", java.util.Arrays.stream(Layer.values()).map(x -> x.label).toList())) {
                Layer layer = UsageError.parsing(Layer::parse, l);
                if (!layers.contains(layer)) layers.add(layer);
            }
            if (layers.isEmpty()) throw new UsageError("--layers lists nothing");
            return new Options(common, rerender, pools, layers, flags.integer("rate", RATE, 1, 1_000_000), flags.integer("concurrency", CONNECTIONS, 1, 10_000),
                    flags.integer("measure", MEASURE_S, 1, 600), flags.integer("repeat", REPEAT, 1, 20),
                    flags.duration("warmup", SLICE, Duration.ofSeconds(1), Duration.ofMinutes(1)), flags.integer("client-limit", 1, 100), flags.on("jfr"),
                    PresetOptions.client(flags, Client.OHA));
        }
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        Flags.requireProc("the bench");
        return run(Options.of(flags), commandLine, out);
    }

    static Path run(Options o, String commandLine, PrintStream out) {
        Path dir = o.common().out();
        if (o.rerender()) return FloorReport.rerender(dir, commandLine, out);
        Duration idle = o.slice().compareTo(IDLE) < 0 ? o.slice() : IDLE;
        FixedLoad.Load load = new FixedLoad.Load(o.rate(), o.connections(), o.slice(), idle, o.measureS(), o.common().timeoutS());
        Path oha = o.oha().locate();
        int cores = Runtime.getRuntime().availableProcessors();
        List<Cell> cells = new ArrayList<>();
        for (PoolKind pool : o.pools()) for (Layer layer : o.layers()) cells.add(new Cell(layer, pool));
        long perRun = (FixedLoad.MIN_SLICES + 1) * o.slice().toSeconds() + idle.toSeconds() + o.measureS() + Crossover.OVERHEAD_S;
        String intro = String.format(Locale.ROOT, "%d pools x %d layers, oha open loop at %d req/s over %d connections, %d s windows after settling"
                        + " warm-up slices of %d s and %d s idle, about %d minutes", o.pools().size(), o.layers().size(), o.rate(), o.connections(), o.measureS(),
                o.slice().toSeconds(), idle.toSeconds(), (cells.size() * o.rounds() * perRun + 59) / 60);
        Runner.Plan<Row> plan = new Runner.Plan<>("preset " + NAME, dir, CSV, Row.TABLE, 1, o.rounds(),
                Map.of("oha", ClientBinary.version(Client.OHA, oha)), Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS), commandLine, intro);
        new Runner<>(plan, new Runner.Experiment<Cell, Row>() {
            @Override
            public List<Cell> cells() {
                return cells;
            }

            @Override
            public String describe(Cell cell) {
                return cell.layer().label + " " + cell.pool();
            }

            @Override
            public Row measure(Cell cell, Runner.Trial t) throws IOException, InterruptedException {
                Path recording = o.jfr() ? dir.resolve(RECORDINGS).resolve(t.invocation() + "-" + t.round() + "-" + cell.layer().label + "-"
                        + cell.pool().toString().replace(':', '_') + ".jfr") : null;
                return one(t, cell, o.common().twin(), o.common().heap(), oha, load, o.clientLimit(), cores, recording);
            }

            @Override
            public Row failed(Cell cell, Runner.Trial t, String why) {
                return new Row(t.invocation(), cell.layer(), cell.pool(), t.round(), t.start(), Instant.now(), t.load1(), FixedLoad.Window.none(o.rate()), why);
            }

            @Override
            public String summary(Row row) {
                return row.failed() ? "FAILED: " + row.failure() : String.format(Locale.ROOT, "%.4f ms CPU per answer (%.4f less idle), %s",
                        row.cpuMsPerRequest(), row.netCpuMsPerRequest(), row.decides() ? "decides" : "does not decide");
            }
        }, out).run();
        return FloorReport.rerender(dir, commandLine, out);
    }

    /** One run's what: a layer on a pool. */
    record Cell(Layer layer, PoolKind pool) {
    }

    /** With {@code jfr}, the servers keep the debug information a recording needs to charge samples precisely. */
    private static ServerProcess start(Layer layer, PoolKind pool, String twin, String heap, Path log, boolean jfr) throws IOException {
        int port = FreePort.pick();
        List<String> jvm = jfr ? ServerProcess.PRECISE_PROFILE : List.of();
        URI noBackend = URI.create("http://" + ServerProcess.HOST + ":1");
        return switch (layer) {
            case JETTY -> ServerProcess.bare(pool.toString(), false, false, heap, port, log, jvm);
            case CONNECTOR -> ServerProcess.bare(pool.toString(), false, true, heap, port, log, jvm);
            case JAVALIN -> ServerProcess.bare(pool.toString(), true, false, heap, port, log, jvm);
            case LOOMYLIN -> ServerProcess.server(List.of(), pool.toString(), twin, heap, port, noBackend, HopClientKind.URL, log, List.of(), jvm);
            case LOOMYLIN_CACHE -> ServerProcess.server(List.of(), pool.toString(), twin, heap, port, noBackend, HopClientKind.URL, log,
                    List.of("--header-cache", Integer.toString(CACHE_LAYER_HEADER_CACHE)), jvm);
        };
    }

    private static Row one(Runner.Trial t, Cell cell, String twin, String heap, Path oha, FixedLoad.Load load, int clientLimit, int cores, Path recording)
            throws IOException, InterruptedException {
        ServerProcess server = null;
        try {
            for (int attempt = 1; ; attempt++) {
                server = start(cell.layer(), cell.pool(), twin, heap, t.log(), recording != null);
                try {
                    if (cell.layer() == Layer.LOOMYLIN || cell.layer() == Layer.LOOMYLIN_CACHE) server.awaitPool(cell.pool().toString(), twin);
                    else server.awaitReady("/");
                    break;
                } catch (StartupFailure e) {
                    server.close();
                    if (!server.portTaken() || attempt == 3) throw e;
                }
            }
            FixedLoad.Window w = FixedLoad.measure(server, server.uri(LOOMYLIN_ENDPOINT), oha, load, cores, clientLimit, recording);
            return new Row(t.invocation(), cell.layer(), cell.pool(), t.round(), t.start(), Instant.now(), t.load1(), w, "");
        } finally {
            if (server != null) server.close();
        }
    }
}
