package loomylin.lab.experiment.fibers;

import loomylin.lab.engine.run.Calibration;
import java.io.BufferedReader;
import java.io.File;
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
import loomylin.lab.engine.load.HeyCsv;
import loomylin.lab.engine.load.HeyRun;
import loomylin.lab.engine.output.Machine;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.lab.engine.run.Windows;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.PoolKind;
import loomylin.server.proc.CpuTimes;
import loomylin.server.proc.ProcReader;
import loomylin.server.web.Limits;

/**
 * {@code bench --preset seed004}: the fibers-server seed's experiments 1 and 2 on this machine. (A seed is one of
 * the earlier projects Loomylin re-measures, numbered as in the README's prior work; seed 004 is tmaret's
 * fibers-server.) Each request is
 * one /mixed call whose time is split as the experiment's mix says (sleep, file I/O, CPU), turned into
 * parameters by a {@link Calibration} made when the bench starts; each (experiment, request time, concurrency,
 * pool) is one run on a fresh server JVM: a warm-up at the run's own concurrency, then hey for a window of
 * {@code --duration}, grown for long requests as every closed-loop window ({@link Windows#closedS(int, long)}; the
 * seed used wrk2 for fixed durations too), req/s = 2xx answers / hey's wall time. A run with too few answers to
 * decide is marked too short ({@link Row#tooShort()}) and left out of the verdicts. Closed loop only: hey has no open-loop
 * mode. Writes seed004.csv (a row per run, as it goes) and seed004.md (the seed's tables beside ours).
 */
public final class FibersExperiments {
    public static final String NAME = "seed004";

    /** A request's time split into shares that add up to 1. */
    public static final List<Calibration.Mix> EXPERIMENTS = Calibration.FIBERS_SEED_MIXES;
    public static final List<Integer> REQUEST_MS = List.of(10, 100, 1000);
    public static final List<Integer> CONCURRENCY = List.of(100, 250, 500, 1000, 2000, 4000);
    /** The seed's unbounded fibers, its queued pool of 1000 kernel threads, its "fibers -c 400". */
    public static final List<String> POOLS = List.of("loom", "qtp:1000", "jetty-vtp:400");
    /** The file part is capped at the servers' data file: at 100 ms and 1 s the mix would ask for more. */
    public static final int FILE_CAP = Limits.DATA_FILE_BYTES_DEFAULT;
    public static final String DURATION = Windows.DECIDING_CLOSED_S + "s";
    public static final String WARMUP = "8s";
    public static final String HEAP = "1g";
    /** seed004.csv: a row per run; its {@code window_s} is hey's -z, {@code duration_s} hey's wall time. */
    public static final Table<Row> TABLE = Table.written(List.of(Column.integer("experiment", Row::experiment), Column.integer("request_ms", Row::ms),
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
     * One finished (or failed) run. {@code failure} null = completed. {@code ok} and {@code errors} count the
     * answers in hey's CSV, which lists only requests that got an answer. {@code windowS} is hey's {@code -z},
     * {@code seconds} its wall time (start to exit), {@code stealPct} the machine's steal time during it.
     */
    public record Row(int experiment, int ms, int concurrency, String pool, String query, int ok, int errors, double rps,
               double p50Ms, double p99Ms, String failure, int windowS, double seconds, double stealPct) {
        /** A run that could not complete: nothing measured. */
        static Row failed(int experiment, int ms, int concurrency, String pool, String query, int windowS, String failure) {
            return new Row(experiment, ms, concurrency, pool, query, 0, 0, 0, Double.NaN, Double.NaN, failure, windowS, Double.NaN, Double.NaN);
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

    /** The flags {@code --preset seed004} reads, read once; the durations are hey's whole seconds, such as 8s. */
    record Options(PresetOptions common, List<String> pools, List<Integer> concurrency, String duration, String warmup, loomylin.lab.engine.load.ClientTool hey) {
        static Options of(Flags flags) {
            List<String> pools = PresetOptions.poolLabels(flags, POOLS);
            List<Integer> concurrency = flags.commaList("concurrency", CONCURRENCY.stream().map(String::valueOf).toList()).stream().map(c -> {
                if (!c.matches("\\d{1,5}") || Integer.parseInt(c) < 1 || Integer.parseInt(c) > 10_000)
                    throw new UsageError("--concurrency takes whole numbers from 1 to 10000, got '" + loomylin.server.web.Params.printable(c) + "'");
                return Integer.parseInt(c);
            }).toList();
            return new Options(PresetOptions.of(flags, HEAP), pools, concurrency, FibersExperiments.duration(flags, "duration", DURATION), FibersExperiments.duration(flags, "warmup", WARMUP),
                    PresetOptions.client(flags, Client.HEY));
        }
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        return run(Options.of(flags), commandLine, out);
    }

    static Path run(Options o, String commandLine, PrintStream out) {
        List<String> pools = o.pools();
        List<Integer> concurrency = o.concurrency();
        String duration = o.duration();
        String warmup = o.warmup();
        String twin = o.common().twin();
        String heap = o.common().heap();
        int timeoutS = o.common().timeoutS();
        Path hey = o.hey().locate();
        Path dir = o.common().out();
        int runs = EXPERIMENTS.size() * REQUEST_MS.size() * concurrency.size() * pools.size();
        long estimateS = estimateS(seconds(duration), seconds(warmup), concurrency.size() * pools.size());
        try {
            Files.createDirectories(dir);
            Path serversLog = dir.resolve("servers.log");
            Files.writeString(serversLog, "");
            Machine machine = Machine.describe(java.util.Map.of(Client.HEY, hey));
            long started = System.nanoTime();
            Provenance provenance = Provenance.collect(commandLine, dir, Map.of("hey", ClientBinary.version(Client.HEY, hey)),
                    Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS));
            provenance.write(dir);
            out.printf("bench: preset %s, %d runs of %s windows (%d s for 1 s requests), about %d minutes; calibrating%n", NAME, runs, duration,
                    Windows.closedS((int) seconds(duration), 1000), (estimateS + 59) / 60);
            Calibration calibration = Calibration.measure();
            out.printf("bench: %.0f SHA-256 iterations per ms, %.0f file bytes per ms of reading and sending%n",
                    calibration.iterationsPerMs(), calibration.fileBytesPerMs());
            List<Row> rows = new ArrayList<>();
            Path csv = dir.resolve("seed004.csv");
            Files.writeString(csv, TABLE.header() + "\n");
            int n = 0;
            for (int e = 0; e < EXPERIMENTS.size(); e++) {
                for (int ms : REQUEST_MS) {
                    String query = calibration.query(EXPERIMENTS.get(e), ms, FILE_CAP);
                    for (int c : concurrency) {
                        for (String pool : pools) {
                            n++;
                            int windowS = Windows.closedS((int) seconds(duration), ms);
                            Row row = one(e + 1, ms, c, pool, query, twin, heap, hey, warmup, windowS, timeoutS, serversLog);
                            rows.add(row);
                            Files.writeString(csv, TABLE.line(row) + "\n", java.nio.file.StandardOpenOption.APPEND);
                            out.printf("bench: %d/%d exp %d %d ms c=%d %s: %s%n", n, runs, e + 1, ms, c, pool,
                                    row.failure() != null ? "N/A (" + row.failure() + ")" : String.format(Locale.ROOT, "%.1f req/s, %d errors in %d s%s", row.rps(),
                                            row.errors(), row.windowS(), row.tooShort() ? "  TOO SHORT" : ""));
                        }
                    }
                }
            }
            provenance = provenance.finishedAfter((System.nanoTime() - started) / 1_000_000_000L);
            provenance.write(dir);
            FibersReport.write(dir.resolve("seed004.md"), provenance, machine, calibration, duration, warmup, pools, concurrency, rows);
            out.printf("bench: done; %s%n", dir.resolve("seed004.md"));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    /** One run; a server that will not start or a hey that fails is an N/A row, not the end of the bench. */
    private static Row one(int experiment, int ms, int c, String pool, String query, String twin, String heap, Path hey,
                           String warmup, int windowS, int timeoutS, Path serversLog) throws IOException {
        Files.writeString(serversLog, "=== exp " + experiment + " " + ms + " ms c=" + c + " " + pool + "\n", java.nio.file.StandardOpenOption.APPEND);
        URI unused = URI.create("http://" + ServerProcess.HOST + ":1");
        ServerProcess server = ServerProcess.server(pool, twin, heap, FreePort.pick(), unused, HopClientKind.JDK, serversLog);
        try {
            server.awaitPool(pool, twin);
            URI url = server.uri("/" + query);
            HeyRun.warmUp(hey, url, warmup, c, timeoutS); // at the run's own concurrency, as every bench warm-up
            long start = System.nanoTime();
            Optional<CpuTimes> machineBefore = ProcReader.SYSTEM.cpuTimes();
            HeyCsv.Responses r = measure(hey, url, windowS, c, timeoutS);
            // hey -z stops sending at the duration but waits for the requests in flight (up to its timeout):
            // req/s divides by its wall time, start to exit, as every other bench run does, not by the duration.
            double seconds = (System.nanoTime() - start) / 1e9;
            double stealPct = machineBefore.flatMap(b -> ProcReader.SYSTEM.cpuTimes().map(a -> a.stealPctSince(b))).orElse(Double.NaN);
            if (!server.alive()) return Row.failed(experiment, ms, c, pool, query, windowS, "server exited");
            return new Row(experiment, ms, c, pool, query, r.ok(), r.count() - r.ok(), r.ok() / seconds,
                    r.percentileMs(50), r.percentileMs(99), null, windowS, seconds, stealPct);
        } catch (StartupFailure | HeyCsv.Malformed e) {
            String line = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return Row.failed(experiment, ms, c, pool, query, windowS, line.length() > 160 ? line.substring(0, 160) + "..." : line);
        } finally {
            server.close();
        }
    }

    /** hey for a fixed duration (-z), its per-request CSV parsed; requests cut off at the end are not counted. */
    private static HeyCsv.Responses measure(Path hey, URI url, int windowS, int c, int timeoutS) throws IOException {
        Path csv = Files.createTempFile("loomylin-hey-", ".csv");
        Path err = Files.createTempFile("loomylin-hey-", ".err");
        try {
            List<String> command = List.of(hey.toString(), "-z", windowS + "s", "-c", Integer.toString(c), "-t", Integer.toString(timeoutS),
                    "-o", "csv", url.toString());
            Process p = ChildProcesses.start(new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(csv.toFile()).redirectError(err.toFile()));
            Duration bound = Duration.ofSeconds(60 + windowS + timeoutS);
            if (!ChildProcesses.waitFor(p, bound)) {
                ChildProcesses.stop(p, Duration.ofSeconds(2));
                throw new StartupFailure("hey did not finish within " + bound.toSeconds() + " s");
            }
            ChildProcesses.stop(p, Duration.ZERO);
            if (p.exitValue() != 0)
                throw new StartupFailure("hey failed with status " + p.exitValue() + ": " + Files.readString(err).strip().replace('\n', ' '));
            try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
                return HeyCsv.parse(in);
            }
        } finally {
            Files.deleteIfExists(csv);
            Files.deleteIfExists(err);
        }
    }

    /** A flag's comma-separated items, or {@code fallback} when it is not given. */

    private static String duration(Flags flags, String name, String fallback) {
        String raw = flags.get(name);
        if (raw == null) return fallback;
        String d = raw.trim();
        if (!d.matches("\\d{1,4}s")  || d.matches("0+s"))
            throw new UsageError("--" + name + " for seed004 must be whole seconds such as 8s, got '" + loomylin.server.web.Params.printable(raw) + "'");
        return d;
    }

    /**
     * Seconds the preset takes: per request time, {@code cellsPerRequestTime} runs of its window (grown for long
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
