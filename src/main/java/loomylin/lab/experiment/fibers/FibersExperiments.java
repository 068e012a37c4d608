package loomylin.lab.experiment.fibers;

import loomylin.lab.engine.run.Calibration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.load.ClientProcess;
import loomylin.lab.engine.load.HeyCsv;
import loomylin.lab.engine.load.HeyRun;
import loomylin.lab.engine.output.Machine;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.PlanFlags;
import loomylin.lab.engine.Runner;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.lab.engine.run.Windows;
import loomylin.server.cli.StartupFailure;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.proc.CpuTimes;
import loomylin.server.proc.ProcReader;
import loomylin.server.web.Limits;

/**
 * {@code bench seed004}: the fibers-server seed's experiments 1 and 2 on this machine. (A seed is one of
 * the earlier projects Loomylin re-measures, numbered as in the README's prior work; seed 004 is tmaret's
 * fibers-server.) Each request is
 * one /mixed call whose time is split as the experiment's mix says (sleep, file I/O, CPU), turned into
 * parameters by a {@link Calibration} made when the bench starts; each (experiment, request time, concurrency,
 * pool) is one run on a fresh server JVM: a warm-up at the run's own concurrency, then hey for a window of
 * {@code --duration}, grown for long requests as every closed-loop window ({@link Windows#closedS(int, long)}; the
 * seed used wrk2 for fixed durations too), req/s = 2xx answers / hey's wall time. A run with too few answers to
 * decide is marked too short ({@link Row#tooShort()}) and left out of the verdicts. Closed loop only: hey has no open-loop
 * mode. The runs are the {@link Runner}'s (one round of every cell, in experiment, request time, concurrency,
 * pool order): seed004.csv (a row per run, as it goes; a second run into the same {@code --out} adds its rows under
 * the next invocation), its provenance, servers.log. Around them: the calibration before, and seed004.md (the
 * seed's tables beside ours) from the invocation's runs as it ends.
 */
public final class FibersExperiments {
    public static final String NAME = "seed004";

    /** A request's time split into shares that add up to 1. */
    public static final List<Calibration.Mix> EXPERIMENTS = Calibration.FIBERS_SEED_MIXES;
    public static final List<Integer> REQUEST_MS = List.of(10, 100, 1000);
    static final String CONCURRENCY_LIST = "100,250,500,1000,2000,4000";
    public static final List<Integer> CONCURRENCY = java.util.Arrays.stream(CONCURRENCY_LIST.split(",")).map(Integer::valueOf).toList();
    /** The seed's unbounded fibers, its queued pool of 1000 kernel threads, its "fibers -c 400". */
    static final String POOLS_LIST = "loom,qtp:1000,jetty-vtp:400";
    public static final List<String> POOLS = List.of(POOLS_LIST.split(","));
    /** The file part is capped at the servers' data file: at 100 ms and 1 s the mix would ask for more. */
    public static final int FILE_CAP = Limits.DATA_FILE_BYTES_DEFAULT;
    public static final String DURATION = Windows.DECIDING_CLOSED_S + "s";
    public static final String WARMUP = "8s";
    public static final String HEAP = "1g";
    public static final String CSV = "seed004.csv";
    public static final String REPORT = "seed004.md";
    /**
     * seed004.csv: a row per run, its invocation first (the committed file, written before, has none); its
     * {@code window_s} is hey's -z, {@code duration_s} hey's wall time.
     */
    public static final Table<Row> TABLE = Table.written(List.of(Column.integer(Invocations.COLUMN, Row::invocation), Column.integer("experiment", Row::experiment), Column.integer("request_ms", Row::ms),
            Column.integer("concurrency", Row::concurrency), Column.text("pool", Row::pool), Column.text("query", Row::query), Column.integer("ok", Row::ok),
            Column.integer("errors", Row::errors), Column.fixed("rps", 1, Row::rps), Column.fixed("p50_ms", 2, Row::p50Ms), Column.fixed("p99_ms", 2, Row::p99Ms),
            Column.quoted("failure", Row::failure), Column.integer("window_s", Row::windowS), Column.fixed("duration_s", 2, Row::seconds),
            Column.fixed("steal_pct", 1, Row::stealPct), Column.flag("too_short", Row::tooShort)));
    /** Server start, warm-up slack and stop, per run, for the estimate printed at the start. */
    public static final int OVERHEAD_S = 10;

    /** The seed's published req/s (fibers, kernel) per experiment, request time and concurrency; -1 = N/A. */
    public static final Map<String, int[][]> SEED = Map.of(
            "1/10", new int[][] {{3411, 2183}, {3272, 2150}, {3350, 2012}, {3187, 1828}, {3265, 1863}, {3055, 1839}},
            "1/100", new int[][] {{330, 256}, {316, 248}, {334, 240}, {323, 186}, {322, 173}, {325, 177}},
            "1/1000", new int[][] {{31, 24}, {30, 19}, {30, 13}, {31, -1}, {32, -1}, {29, -1}},
            "2/10", new int[][] {{9723, 9193}, {13735, 10047}, {13942, 9683}, {13754, 9355}, {14350, 10190}, {12973, 10045}},
            "2/100", new int[][] {{1012, 1025}, {1925, 1850}, {1944, 1797}, {1953, 1523}, {1871, 1623}, {1918, 1570}},
            "2/1000", new int[][] {{100, 99}, {206, 197}, {206, 221}, {198, 175}, {199, 173}, {198, 169}});

    /**
     * One finished (or failed) run of an invocation. {@code failure} null = completed. {@code ok} and {@code errors} count the
     * answers in hey's CSV, which lists only requests that got an answer. {@code windowS} is hey's {@code -z},
     * {@code seconds} its wall time (start to exit), {@code stealPct} the machine's steal time during it.
     */
    public record Row(int invocation, int experiment, int ms, int concurrency, String pool, String query, int ok, int errors, double rps,
               double p50Ms, double p99Ms, String failure, int windowS, double seconds, double stealPct) {
        /** A run that could not complete: nothing measured. */
        static Row failed(int invocation, int experiment, int ms, int concurrency, String pool, String query, int windowS, String failure) {
            return new Row(invocation, experiment, ms, concurrency, pool, query, 0, 0, 0, Double.NaN, Double.NaN, failure, windowS, Double.NaN, Double.NaN);
        }

        /**
         * Too few answers for the run to decide anything, by the bench's rule ({@link RunResult#tooShort()}): under
         * {@link RunResult#MIN_ANSWERS}, or under {@link RunResult#MIN_ANSWERS_PER_CLIENT} per client, so that the
         * window was mostly the clients' first requests queueing. A failed run is N/A, not too short.
         */
        public boolean tooShort() {
            return failure == null && RunResult.tooShort((long) ok + errors, concurrency, false);
        }

        /**
         * At least this many requests got no answer at all: each of the c clients sends until the duration ends
         * and hey waits for the last one up to its timeout, so fewer answers than clients means the rest timed out.
         */
        int unanswered() {
            return failure != null ? 0 : Math.max(0, concurrency - ok - errors);
        }

        boolean complete() {
            return failure == null && errors == 0 && unanswered() == 0;
        }
    }

    private FibersExperiments() {
    }

    /** What {@code bench seed004} runs, its flags read once ({@link Seed004Command}); the durations are hey's whole seconds, such as 8s. */
    record Options(PlanFlags.Options plan, PresetOptions common, List<String> pools, List<Integer> concurrency, String duration, String warmup,
                   loomylin.lab.engine.load.ClientTool hey) {
    }

    static Path run(Options o, String commandLine, PrintStream out) {
        List<String> pools = o.pools();
        List<Integer> concurrency = o.concurrency();
        String duration = o.duration();
        String warmup = o.warmup();
        Path hey = o.hey().locate();
        Path dir = o.plan().out();
        Machine machine = Machine.describe(Map.of(Client.HEY, hey));
        out.printf("bench: %s: calibrating%n", NAME);
        Calibration calibration;
        try {
            calibration = Calibration.measure();
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
        out.printf("bench: %.0f SHA-256 iterations per ms, %.0f file bytes per ms of reading and sending%n",
                calibration.iterationsPerMs(), calibration.fileBytesPerMs());
        List<Cell> cells = new ArrayList<>();
        for (int e = 0; e < EXPERIMENTS.size(); e++)
            for (int ms : REQUEST_MS)
                for (int c : concurrency)
                    for (String pool : pools)
                        cells.add(new Cell(e + 1, ms, c, pool, calibration.query(EXPERIMENTS.get(e), ms, FILE_CAP), Windows.closedS((int) seconds(duration), ms)));
        long estimateS = estimateS(seconds(duration), seconds(warmup), concurrency.size() * pools.size());
        String intro = String.format(Locale.ROOT, "hey windows of %s (%d s for 1 s requests), about %d minutes", duration,
                Windows.closedS((int) seconds(duration), 1000), (estimateS + 59) / 60);
        Runner.Plan<Row> plan = o.plan().plan(NAME, CSV, TABLE, Map.of("hey", ClientBinary.version(Client.HEY, hey)),
                Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS), commandLine, intro);
        new Runner<>(plan, new Runner.Experiment<Cell, Row>() {
            @Override
            public List<Cell> cells() {
                return cells;
            }

            @Override
            public String describe(Cell cell) {
                return "exp " + cell.experiment() + " " + cell.ms() + " ms c=" + cell.concurrency() + " " + cell.pool();
            }

            @Override
            public Row measure(Cell cell, Runner.Trial t) throws IOException {
                return one(t, cell, o.common().twin(), o.common().heap(), hey, warmup, o.common().timeoutS());
            }

            @Override
            public Row failed(Cell cell, Runner.Trial t, String why) {
                return Row.failed(t.invocation(), cell.experiment(), cell.ms(), cell.concurrency(), cell.pool(), cell.query(), cell.windowS(),
                        why.length() > 160 ? why.substring(0, 160) + "..." : why);
            }

            @Override
            public String summary(Row row) {
                return row.failure() != null ? "N/A (" + row.failure() + ")" : String.format(Locale.ROOT, "%.1f req/s, %d errors in %d s%s", row.rps(),
                        row.errors(), row.windowS(), row.tooShort() ? "  TOO SHORT" : "");
            }

            @Override
            public void ended(int invocation, List<Row> rows, Provenance provenance) throws IOException {
                FibersReport.write(dir.resolve(REPORT), invocation, provenance, machine, calibration, duration, warmup, pools, concurrency, rows);
            }
        }, out).run();
        out.printf("bench: done; %s%n", dir.resolve(REPORT));
        return dir;
    }

    /** One run's what: an experiment's mix at one request time, concurrency and pool, as its /mixed query and hey window. */
    record Cell(int experiment, int ms, int concurrency, String pool, String query, int windowS) {
    }

    /** One run; a server that will not start, exits, or a hey that fails is a failed run ({@link StartupFailure}), not the end of the bench. */
    private static Row one(Runner.Trial t, Cell cell, String twin, String heap, Path hey, String warmup, int timeoutS) throws IOException {
        URI unused = URI.create("http://" + ServerProcess.HOST + ":1");
        ServerProcess server = ServerProcess.server(cell.pool(), twin, heap, FreePort.pick(), unused, HopClientKind.JDK, t.log());
        try {
            server.awaitPool(cell.pool(), twin);
            URI url = server.uri("/" + cell.query());
            HeyRun.warmUp(hey, url, warmup, cell.concurrency(), timeoutS); // at the run's own concurrency, as every bench warm-up
            long start = System.nanoTime();
            Optional<CpuTimes> machineBefore = ProcReader.SYSTEM.cpuTimes();
            HeyCsv.Responses r = measure(hey, url, cell.windowS(), cell.concurrency(), timeoutS);
            // hey -z stops sending at the duration but waits for the requests in flight (up to its timeout):
            // req/s divides by its wall time, start to exit, as every other bench run does, not by the duration.
            double seconds = (System.nanoTime() - start) / 1e9;
            double stealPct = machineBefore.flatMap(b -> ProcReader.SYSTEM.cpuTimes().map(a -> a.stealPctSince(b))).orElse(Double.NaN);
            if (!server.alive()) throw new StartupFailure("server exited");
            return new Row(t.invocation(), cell.experiment(), cell.ms(), cell.concurrency(), cell.pool(), cell.query(), r.ok(), r.count() - r.ok(),
                    r.ok() / seconds, r.percentileMs(50), r.percentileMs(99), null, cell.windowS(), seconds, stealPct);
        } catch (HeyCsv.Malformed e) {
            throw new StartupFailure(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        } finally {
            server.close();
        }
    }

    /** hey for a fixed duration (-z), its per-request CSV parsed; requests cut off at the end are not counted. */
    private static HeyCsv.Responses measure(Path hey, URI url, int windowS, int c, int timeoutS) throws IOException {
        Path csv = Files.createTempFile("loomylin-hey-", ".csv");
        try {
            ClientProcess.run(List.of(hey.toString(), "-z", windowS + "s", "-c", Integer.toString(c), "-t", Integer.toString(timeoutS), "-o", "csv", url.toString()),
                    csv, Duration.ofSeconds(60 + windowS + timeoutS), null, "hey");
            try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
                return HeyCsv.parse(in);
            }
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    /**
     * Seconds the experiment takes: per request time, {@code cellsPerRequestTime} runs of its window (grown for long
     * requests as every closed-loop window, {@link Windows#closedS(int, long)}), the warm-up and a server's start
     * and stop.
     */
    public static long estimateS(long durationS, long warmupS, int cellsPerRequestTime) {
        long seconds = 0;
        for (int ms : REQUEST_MS) seconds += (long) cellsPerRequestTime * (Windows.closedS((int) durationS, ms) + warmupS + OVERHEAD_S);
        return seconds * EXPERIMENTS.size();
    }

    public static long seconds(String duration) {
        return Long.parseLong(duration.substring(0, duration.length() - 1));
    }

    /** The seed's figure for experiment e (1-based), request time ms, concurrency c; null if it has none. */
    public static int[] seed(int e, int ms, int c) {
        int[][] table = SEED.get(e + "/" + ms);
        int i = CONCURRENCY.indexOf(c);
        return table == null || i < 0 ? null : table[i];
    }

    public static Map<String, Row> index(List<Row> rows) {
        Map<String, Row> byKey = new LinkedHashMap<>();
        rows.forEach(r -> byKey.put(r.experiment() + "/" + r.ms() + "/" + r.concurrency() + "/" + r.pool(), r));
        return byKey;
    }
}
