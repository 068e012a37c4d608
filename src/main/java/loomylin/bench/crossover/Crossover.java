package loomylin.bench.crossover;

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
import loomylin.bench.fibers.Calibration;
import loomylin.bench.load.Client;
import loomylin.bench.load.ClientBinary;
import loomylin.bench.load.WrkRun;
import loomylin.bench.output.Progress;
import loomylin.bench.output.Provenance;
import loomylin.bench.run.FreePort;
import loomylin.bench.run.RunResult;
import loomylin.bench.run.RunSpec;
import loomylin.bench.run.ServerProcess;
import loomylin.bench.run.TimedRun;
import loomylin.cli.Flags;
import loomylin.cli.StartupFailure;
import loomylin.cli.UsageError;
import loomylin.bench.run.Endpoint;
import loomylin.jetty.HopClientKind;
import loomylin.jetty.PoolKind;
import loomylin.jetty.Twin;
import loomylin.web.Limits;
import loomylin.web.Params;

/**
 * {@code bench --preset crossover}: where virtual threads pay off. Every cell of the {@link Grid} is one run per
 * pool on a fresh server JVM: a wrk warm-up at the run's own concurrency, then a wrk window of
 * {@code --measure} seconds, closed loop; server CPU from /proc around the window. The CPU part of a cell is
 * turned into SHA-256 iterations by a {@link Calibration} made when the bench starts. Writes crossover.csv (a
 * row per run, as it goes), crossover.md (per cell loom's ratio to the best platform pool and to async, with the
 * range over repeats, and the crossover in one sentence), the heat maps and provenance.json.
 */
public final class Crossover {
    public static final String NAME = "crossover";
    public static final List<Integer> WAITS_MS = List.of(0, 1, 5, 20, 100);
    public static final List<Double> CPUS_MS = List.of(0.0, 0.25, 1.0, 4.0);
    /** Twice qtp:200's request threads: in the long-wait cells a 200-thread pool must queue. */
    public static final int CONCURRENCY = 400;
    public static final int MEASURE_S = 20;
    public static final Duration WARMUP = Duration.ofSeconds(3);
    public static final int REPEAT = 1;
    public static final String HEAP = "512m";
    /** Per run, beyond its warm-up and window: server start, settle, stop; for the estimate printed at the start. */
    public static final int OVERHEAD_S = 5;
    /** The bench flags this preset reads; the bench refuses any other given with it. */
    public static final java.util.Set<String> FLAGS = java.util.Set.of("preset", "waits", "cpus", "calls", "concurrency", "measure", "warmup", "repeat",
            "twin", "heap", "timeout", "client-limit", "wrk", "out", "rerender", "help");
    public static final String CSV = "crossover.csv";
    public static final String REPORT = "crossover.md";

    /** One finished or failed run; {@code result} is null when {@code failure} says why there is none. */
    public record Row(Grid.Run run, RunResult result, String failure) {
    }

    private Crossover() {
    }

    /** The runs' settings read from the bench's flags. */
    record Settings(List<Integer> waits, List<Double> cpus, int calls, int concurrency, int measureS, Duration warmup, int repeat, String twin,
                    String heap, int timeoutS, int clientLimitPct, Path wrk, Path out) {
        long estimateS(int runs) {
            return runs * (measureS + warmup.toSeconds() + OVERHEAD_S);
        }
    }

    static Settings settings(Flags flags) {
        List<Integer> waits = list(flags, "waits", WAITS_MS.stream().map(String::valueOf).toList()).stream().map(w -> {
            if (!w.matches("\\d{1,6}") || Integer.parseInt(w) > Limits.MS_MAX)
                throw new UsageError("--waits takes whole milliseconds from 0 to " + Limits.MS_MAX + " such as 0,1,5,20,100, got '" + Params.printable(w) + "'");
            return Integer.parseInt(w);
        }).distinct().sorted().toList();
        List<Double> cpus = list(flags, "cpus", CPUS_MS.stream().map(String::valueOf).toList()).stream()
                .map(c -> number(c, "--cpus", 0, 100)).distinct().sorted().toList();
        int calls = flags.get("calls") == null ? 0 : flags.integer("calls", 0, Limits.CALLS_MAX);
        int concurrency = flags.get("concurrency") == null ? CONCURRENCY : flags.integer("concurrency", 1, 10_000);
        int measureS = flags.get("measure") == null ? MEASURE_S : flags.integer("measure", 1, 600);
        Duration warmup = flags.get("warmup") == null ? WARMUP : flags.duration("warmup", Duration.ofSeconds(1), Duration.ofMinutes(5));
        int repeat = flags.get("repeat") == null ? REPEAT : flags.integer("repeat", 1, 20);
        String twin = flags.value("twin", Twin::parse).label();
        String heap = flags.heap("heap", HEAP);
        Path wrk = ClientBinary.locate(Client.WRK, flags.get("wrk") == null ? null : Path.of(flags.get("wrk")));
        return new Settings(waits, cpus, calls, concurrency, measureS, warmup, repeat, twin, heap, flags.integer("timeout", 1, 600),
                flags.integer("client-limit", 1, 100), wrk, Path.of(flags.get("out")).toAbsolutePath());
    }

    /**
     * {@code --rerender}: writes crossover.md and the heat maps again from {@code --out}'s crossover.csv, measuring
     * nothing, so that runs made before a change in the report's rules (such as which runs may decide a ratio) are
     * read under the rules of today. The command line in the report stays the one that made the runs
     * (provenance.json); the calibration is read back from the rows' iterations per ms of CPU.
     */
    public static Path rerender(Flags flags, PrintStream out) {
        Path dir = Path.of(flags.get("out")).toAbsolutePath();
        Path csv = dir.resolve(CSV);
        if (!Files.isRegularFile(csv)) throw new UsageError("--rerender: no " + CSV + " in " + dir);
        try {
            List<Map<String, String>> lines = loomylin.report.Csv.parse(Files.readString(csv));
            List<Row> rows = new ArrayList<>();
            double iterationsPerMs = Double.NaN;
            for (Map<String, String> f : lines) {
                Grid.Cell cell = new Grid.Cell(Integer.parseInt(f.get("wait_ms")), Double.parseDouble(f.get("cpu_ms")));
                if (cell.cpuMs() > 0 && Double.isNaN(iterationsPerMs)) iterationsPerMs = Integer.parseInt(f.get("cpu_iterations")) / cell.cpuMs();
                Grid.Role role = java.util.Arrays.stream(Grid.Role.values()).filter(r -> r.label.equals(f.get("role"))).findFirst()
                        .orElseThrow(() -> new UsageError("--rerender: unknown role '" + f.get("role") + "' in " + csv));
                Grid.Run run = new Grid.Run(cell, role, PoolKind.parse(f.get("pool")), Endpoint.parse(f.get("endpoint")), Integer.parseInt(f.get("repeat")));
                String failure = f.get("failure");
                rows.add(failure == null || failure.isEmpty() ? new Row(run, RunResult.fromCsv(f), null) : new Row(run, null, failure));
            }
            if (rows.isEmpty()) throw new UsageError("--rerender: " + csv + " has no runs");
            Map<?, ?> provenance = Files.isRegularFile(dir.resolve(Provenance.FILE))
                    ? (Map<?, ?>) loomylin.json.Json.parse(Files.readString(dir.resolve(Provenance.FILE))) : Map.of();
            String commandLine = String.valueOf(provenance.get("command")) + " (runs of commit " + provenance.get("commit") + ", report written again by --rerender)";
            String made = String.valueOf(provenance.get("command"));
            java.util.regex.Matcher measure = java.util.regex.Pattern.compile("--measure[ =](\\d+)").matcher(made);
            java.util.regex.Matcher warmup = java.util.regex.Pattern.compile("--warmup[ =](\\d+)s\\b").matcher(made);
            int calls = Endpoint.parse(rows.getFirst().run().endpoint().toString()).toString().matches(".*[?&]calls=\\d+.*")
                    ? Integer.parseInt(rows.getFirst().run().endpoint().toString().replaceAll(".*[?&]calls=(\\d+).*", "$1")) : 0;
            Settings s = new Settings(CrossoverReport.waits(rows), CrossoverReport.cpus(rows), calls,
                    Integer.parseInt(lines.getFirst().get("concurrency")),
                    measure.find() ? Integer.parseInt(measure.group(1)) : MEASURE_S,
                    warmup.find() ? Duration.ofSeconds(Long.parseLong(warmup.group(1))) : WARMUP,
                    rows.stream().mapToInt(r -> r.run().repeat()).max().orElse(1), lines.getFirst().get("twin"), HEAP, 0, 0, null, dir);
            CrossoverReport.write(dir, commandLine, s, new Calibration(Double.isNaN(iterationsPerMs) ? 0 : iterationsPerMs, 0), rows);
            out.println(CrossoverReport.sentence(rows));
            out.printf("bench: written again from %s; %s%n", csv, dir.resolve(REPORT));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        if (flags.on("rerender")) return rerender(flags, out);
        loomylin.cli.Flags.requireProc("the bench");
        Settings s = settings(flags);
        int cores = Runtime.getRuntime().availableProcessors();
        Path dir = s.out();
        try {
            Files.createDirectories(dir);
            Path serversLog = dir.resolve("servers.log");
            Files.writeString(serversLog, "");
            out.printf("bench: preset %s, calibrating /mixed's CPU work%n", NAME);
            Calibration calibration = Calibration.measure();
            Grid.CpuQuery query = (route, cell) -> route + "?cpu=" + iterations(calibration, cell.cpuMs()) + "&sleep=" + cell.waitMs() + "&file=0"
                    + (s.calls() > 0 ? "&calls=" + s.calls() : "");
            List<Grid.Run> plan = Grid.plan(s.waits(), s.cpus(), s.concurrency(), cores, s.repeat(), query);
            long estimate = s.estimateS(plan.size());
            out.printf(Locale.ROOT, "bench: %d cells x %d pools = %d runs of %d s after a %d s warm-up at c=%d, about %d minutes; %.0f SHA-256 iterations per ms -> %s%n",
                    s.waits().size() * s.cpus().size(), plan.size() / Math.max(1, s.waits().size() * s.cpus().size() * s.repeat()), plan.size(),
                    s.measureS(), s.warmup().toSeconds(), s.concurrency(), (estimate + 59) / 60, calibration.iterationsPerMs(), dir);
            Provenance.collect(commandLine, dir, Map.of("wrk", ClientBinary.version(Client.WRK, s.wrk())), Map.of("server", Provenance.ALL_CPUS,
                    "client", Provenance.ALL_CPUS)).write(dir);
            Path csv = dir.resolve(CSV);
            Files.writeString(csv, String.join(",", CrossoverReport.CSV_COLUMNS) + "\n");
            List<Row> rows = new ArrayList<>();
            Progress progress = new Progress(plan.size(), out);
            ServerProcess backend = s.calls() > 0 ? startBackend(dir.resolve("backend.log")) : null;
            URI backendUri = backend != null ? backend.uri("") : URI.create("http://" + ServerProcess.HOST + ":1"); // a sleep calls nothing
            try {
                for (int i = 0; i < plan.size(); i++) {
                    Grid.Run run = plan.get(i);
                    Files.writeString(serversLog, "=== run " + (i + 1) + "/" + plan.size() + ": " + run.describe() + "\n", StandardOpenOption.APPEND);
                    Row row = one(run, s, cores, serversLog, backendUri);
                    rows.add(row);
                    Files.writeString(csv, CrossoverReport.csvLine(row, calibration), StandardOpenOption.APPEND);
                    if (row.result() != null) progress.done(i + 1, row.result());
                    else out.printf("[%d/%d] %s FAILED: %s%n", i + 1, plan.size(), run.describe(), row.failure());
                }
            } finally {
                if (backend != null) backend.close();
            }
            CrossoverReport.write(dir, commandLine, s, calibration, rows);
            out.println(CrossoverReport.sentence(rows));
            out.printf("bench: done; %s%n", dir.resolve(REPORT));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    /** One run on a fresh server; a server that will not start or a wrk that fails is a failed row, not the end of the grid. */
    private static Row one(Grid.Run run, Settings s, int cores, Path serversLog, URI backend) throws IOException {
        ServerProcess server = null;
        try {
            server = start(run, s, backend, serversLog);
            RunSpec spec = new RunSpec(run.pool(), run.endpoint(), s.concurrency(), 0, Client.WRK, run.repeat());
            int warmupS = (int) Math.max(1, s.warmup().toSeconds());
            RunResult result = TimedRun.run(server, spec, s.twin(), cores, s.clientLimitPct(),
                    (url, sampler) -> WrkRun.measure(s.wrk(), url, warmupS, s.concurrency(), s.timeoutS(), cores, sampler),
                    (url, sampler) -> WrkRun.measure(s.wrk(), url, s.measureS(), s.concurrency(), s.timeoutS(), cores, sampler));
            return new Row(run, result, null);
        } catch (StartupFailure | IllegalArgumentException e) {
            String line = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Row(run, null, line.length() > 200 ? line.substring(0, 200) + "..." : line);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("bench: interrupted");
        } finally {
            if (server != null) server.close();
        }
    }

    private static ServerProcess start(Grid.Run run, Settings s, URI backend, Path log) throws IOException {
        for (int attempt = 1; ; attempt++) {
            ServerProcess server = ServerProcess.server(run.pool().toString(), s.twin(), s.heap(), FreePort.pick(), backend, HopClientKind.URL, log);
            try {
                server.awaitPool(run.pool().toString(), s.twin());
                return server;
            } catch (StartupFailure e) {
                server.close();
                if (!server.portTaken() || attempt == 3) throw e;
            }
        }
    }

    /** The backend a wait of calls goes to: its own JVM for the whole grid, answering /echo after each call's delay. */
    private static ServerProcess startBackend(Path log) throws IOException {
        Files.writeString(log, "");
        return ServerProcess.startedBackend(List.of(), 0, log, "/echo?delay=0&bytes=0");
    }

    /** SHA-256 iterations for {@code cpuMs} of this machine's CPU, within /mixed's limit. */
    static int iterations(Calibration calibration, double cpuMs) {
        return (int) Math.min(Limits.CPU_MAX, Math.round(cpuMs * calibration.iterationsPerMs()));
    }

    private static double number(String text, String flag, double min, double max) {
        try {
            double v = Double.parseDouble(text);
            if (v >= min && v <= max && !Double.isNaN(v)) return v;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageError(flag + " takes numbers from " + (int) min + " to " + (int) max
                + ", got '" + Params.printable(text) + "'");
    }

    private static List<String> list(Flags flags, String name, List<String> fallback) {
        return flags.commaList(name, fallback);
    }
}
