package loomylin.lab.experiment.connections;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import loomylin.lab.engine.PlanFlags;
import loomylin.lab.engine.Runner;
import loomylin.lab.engine.output.Provenance;
import loomylin.server.proc.ProcReader;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.json.Json;
import loomylin.server.web.Params;

/**
 * {@code bench connections}: the echo seed's experiment. One backend JVM answers {@code /echo} after
 * 1 s; for each client model and number of connections a fresh {@code clients} JVM holds that many keep-alive
 * connections for {@code --measure} seconds (default 10: ten answers per connection) while the bench samples its /proc
 * figures (peak RSS, VSZ, OS threads) as it does for the servers. The client reports its throughput and its CPU time
 * in the measured period. Every level runs {@code --repeat} times (default 3), the models interleaved within a level
 * (nio, threads, virtual, nio, ...) so that a drift of the machine falls on all of them; the report gives medians with
 * their range. The runs are the {@link Runner}'s (a repeat is its round, the levels and models its cells): DIR/connections.csv
 * (a row per run, as it goes; a second run into the same {@code --out} adds its rows under the next invocation), its
 * provenance, servers.log (each client JVM's output). Around them: the backend for the whole bench, and
 * DIR/connections.md and DIR/connections.png (one line per model) from the invocation's runs as it ends. A model
 * that cannot hold a level (platform threads that do not start) is a row with its error, not a failed bench.
 */
public final class ConnectionsBench {
    public static final String NAME = "connections";
    public static final List<String> MODELS = List.of("nio", "threads", "virtual");
    public static final List<Integer> LEVELS = List.of(100, 1_000, 5_000, 10_000, 15_000);
    /** The seed's largest level; the bench goes there when the open-file limit allows. */
    public static final int SEED_MAX = 50_000;
    /** Files kept free in each process besides one socket per connection. */
    public static final int SPARE_FILES = 1_000;
    public static final String SOURCES = "127.0.0.2-127.0.0.9";

    public static final int DEFAULT_MEASURE_S = 10;
    public static final int DEFAULT_REPEAT = 3;
    public static final String CSV = "connections.csv";

    /** One client run: its invocation and repeat (the Runner's round), what the client printed, what the bench sampled. */
    public record Row(int invocation, String model, int connections, int repeat, long completed, double throughput, double cpuS, long lost, long unfinished,
               long peakRssKb, long peakVszKb, int peakThreads, String error) {
        double cpuPerRequestMs() {
            return completed == 0 ? Double.NaN : cpuS * 1000 / completed;
        }
    }

    private ConnectionsBench() {
    }

    /** What {@code bench connections} runs, its flags read once ({@link ConnectionsCommand}): the connection levels, each window in seconds, the plan. */
    record Options(List<Integer> levels, int durationS, PlanFlags.Options plan) {
    }

    /** The default levels plus the most the open-file limit allows (up to the seed's 50,000), or the flag's list. */
    public static List<Integer> levels(String flag, OptionalLong fileLimit) {
        long most = fileLimit.isPresent() ? fileLimit.getAsLong() - SPARE_FILES : SEED_MAX;
        if (flag == null) {
            List<Integer> levels = new ArrayList<>(LEVELS.stream().filter(l -> l <= most).toList());
            int top = (int) Math.min(SEED_MAX, most);
            if (top > 0 && !levels.contains(top)) levels.add(top);
            return levels;
        }
        List<Integer> levels = new ArrayList<>();
        for (String item : flag.split(",")) {
            String c = item.trim();
            if (!c.matches("\\d{1,6}") || Integer.parseInt(c) < 1 || Integer.parseInt(c) > most)
                throw new UsageError("--connections takes whole numbers from 1 to " + most
                        + " (the open-file limit less " + SPARE_FILES + "), got '" + Params.printable(c) + "'");
            levels.add(Integer.parseInt(c));
        }
        return levels;
    }

    static List<Row> run(Options o, String commandLine, PrintStream out) throws IOException, InterruptedException {
        Path dir = o.plan().out();
        int durationS = o.durationS();
        Files.createDirectories(dir);
        Path backendLog = dir.resolve("backend.log");
        if (!Files.exists(backendLog)) Files.writeString(backendLog, "");
        List<Cell> cells = new ArrayList<>();
        for (int connections : o.levels()) for (String model : MODELS) cells.add(new Cell(model, connections));
        Runner.Plan<Row> plan = o.plan().plan(NAME, CSV, ConnectionsReport.TABLE, Map.of(), Map.of("client", Provenance.ALL_CPUS, "backend", Provenance.ALL_CPUS),
                commandLine, MODELS + " x " + o.levels() + " connections, " + durationS + " s each");
        try (ServerProcess backend = ServerProcess.backend(FreePort.pick(), 1_000, backendLog)) {
            backend.awaitReady("/echo?delay=0");
            String target = backend.uri("/echo?delay=1000&bytes=32").toString();
            List<Row> rows = new Runner<>(plan, new Runner.Experiment<Cell, Row>() {
                @Override
                public List<Cell> cells() {
                    return cells;
                }

                @Override
                public String describe(Cell cell) {
                    return cell.model() + " " + cell.connections() + " connections";
                }

                @Override
                public Row measure(Cell cell, Runner.Trial t) throws IOException, InterruptedException {
                    return client(t, cell.model(), cell.connections(), durationS, target);
                }

                @Override
                public Row failed(Cell cell, Runner.Trial t, String why) {
                    return new Row(t.invocation(), cell.model(), cell.connections(), t.round(), 0, Double.NaN, Double.NaN, 0, 0, 0, 0, 0, why);
                }

                @Override
                public String summary(Row row) {
                    return row.error() != null ? "failed: " + row.error() : String.format(Locale.ROOT, "%.1f req/s, %.1f s CPU, RSS %d MB, %d threads",
                            row.throughput(), row.cpuS(), row.peakRssKb() / 1024, row.peakThreads());
                }

                @Override
                public void ended(int invocation, List<Row> rows, Provenance provenance) throws IOException {
                    ConnectionsReport.write(dir, invocation, provenance, durationS, rows);
                }
            }, out).run();
            out.printf("bench: done; %s%n", dir.resolve(ConnectionsReport.REPORT));
            return rows;
        }
    }

    /** One run's what: a client model holding a number of connections. */
    record Cell(String model, int connections) {
    }

    /** One {@code clients} JVM, sampled while it runs, its output in the runs' log; one that fails or hangs is a failed run ({@link StartupFailure}). */
    private static Row client(Runner.Trial t, String model, int connections, int durationS, String target) throws IOException, InterruptedException {
        List<String> command = List.of(ServerProcess.java(), "-cp", System.getProperty("java.class.path"), "loomylin.Main",
                "clients", "--model", model, "--connections", Integer.toString(connections), "--duration", Integer.toString(durationS),
                "--target", target, "--source-addresses", SOURCES, "--format", "json");
        Path json = Files.createTempFile("loomylin-clients", ".json");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(json.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(t.log().toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().keySet().removeIf(k -> k.startsWith("LOOMYLIN_"));
            Process process = ChildProcesses.start(builder);
            ProcSampler.Peaks peaks;
            try (ProcSampler sampler = new ProcSampler(ProcReader.SYSTEM, process.pid(), Duration.ofMillis(500))) {
                sampler.start();
                // opening up to 50,000 connections, the measured period, the drain (at most 30 s), the JVM's start and stop
                if (!process.waitFor(durationS + 180L, TimeUnit.SECONDS)) {
                    ChildProcesses.stop(process, Duration.ofSeconds(5));
                    throw new StartupFailure("still running after " + (durationS + 180) + " s; killed");
                }
                sampler.close();
                peaks = sampler.peaks();
            }
            String printed = Files.readString(json).strip();
            if (process.exitValue() != 0 || printed.isEmpty()) {
                List<String> lines = Files.readAllLines(t.log());
                throw new StartupFailure("exit " + process.exitValue() + ": " + (lines.isEmpty() ? "" : lines.get(lines.size() - 1)));
            }
            Map<?, ?> r = (Map<?, ?>) Json.parse(printed.lines().reduce((a, b) -> b).orElseThrow());
            return new Row(t.invocation(), model, connections, t.round(), number(r, "completed"), ((Number) r.get("throughput")).doubleValue(),
                    ((Number) r.get("cpuSeconds")).doubleValue(), number(r, "lost"), number(r, "unfinished"),
                    peaks.rssKb(), peaks.vszKb(), peaks.threads(), null);
        } finally {
            Files.deleteIfExists(json);
        }
    }

    private static long number(Map<?, ?> r, String name) {
        return ((Number) r.get(name)).longValue();
    }
}
