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
import loomylin.lab.engine.output.Provenance;
import loomylin.server.proc.ProcReader;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.json.Json;
import loomylin.server.proc.ProcLimits;
import loomylin.server.web.Params;

/**
 * {@code bench --preset connections}: the echo seed's experiment. One backend JVM answers {@code /echo} after
 * 1 s; for each client model and number of connections a fresh {@code clients} JVM holds that many keep-alive
 * connections for {@code --measure} seconds (default 10: ten answers per connection) while the bench samples its /proc
 * figures (peak RSS, VSZ, OS threads) as it does for the servers. The client reports its throughput and its CPU time
 * in the measured period. Every level runs {@code --repeat} times (default 3), the models interleaved within a level
 * (nio, threads, virtual, nio, ...) so that a drift of the machine falls on all of them; the report gives medians with
 * their range. Writes DIR/connections.csv (a row per run), DIR/connections.md and DIR/connections.png (one line per
 * model). A model that cannot hold a level (platform threads that do not start) is a row with its error, not a failed
 * bench.
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

    /** One client run: what the client printed, what the bench sampled. */
    public record Row(String model, int connections, int repeat, long completed, double throughput, double cpuS, long lost, long unfinished,
               long peakRssKb, long peakVszKb, int peakThreads, String error) {
        double cpuPerRequestMs() {
            return completed == 0 ? Double.NaN : cpuS * 1000 / completed;
        }
    }

    private ConnectionsBench() {
    }

    /** The flags {@code --preset connections} reads, read once: the connection levels, each window in seconds, the repeats and where to write. */
    record Options(List<Integer> levels, int durationS, int repeat, Path out) {
        static Options of(Flags flags) {
            return new Options(ConnectionsBench.levels(flags.get("concurrency"), ProcLimits.openFiles(ProcLimits.SELF)), flags.integer("measure", DEFAULT_MEASURE_S, 1, 3_600),
                    flags.integer("repeat", DEFAULT_REPEAT, 1, 20), Path.of(flags.get("out")).toAbsolutePath());
        }
    }

    public static void main(Flags flags, String commandLine, PrintStream out) {
        loomylin.server.cli.Flags.requireProc("the bench");
        Options o = Options.of(flags);
        try {
            run(o.out(), MODELS, o.levels(), o.durationS(), o.repeat(), commandLine, out);
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("bench: interrupted");
        }
    }

    /** The preset's levels plus the most the open-file limit allows (up to the seed's 50,000), or the flag's list. */
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
                throw new UsageError("--concurrency (connections) takes whole numbers from 1 to " + most
                        + " (the open-file limit less " + SPARE_FILES + "), got '" + Params.printable(c) + "'");
            levels.add(Integer.parseInt(c));
        }
        return levels;
    }

    public static List<Row> run(Path dir, List<String> models, List<Integer> levels, int durationS, int repeat, String commandLine, PrintStream out)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path backendLog = dir.resolve("backend.log");
        Path clientsLog = dir.resolve("clients.log");
        Files.writeString(backendLog, "");
        Files.writeString(clientsLog, "");
        long started = System.nanoTime();
        Provenance provenance = Provenance.collect(commandLine, dir, Map.of(), Map.of("client", Provenance.ALL_CPUS, "backend", Provenance.ALL_CPUS));
        provenance.write(dir);
        int total = models.size() * levels.size() * repeat;
        out.printf("bench: preset connections, %d runs (%s x %s connections x %d repeats, %d s each) -> %s%n",
                total, models, levels, repeat, durationS, dir);
        List<Row> rows = new ArrayList<>();
        try (ServerProcess backend = ServerProcess.backend(FreePort.pick(), 1_000, backendLog)) {
            backend.awaitReady("/echo?delay=0");
            String target = backend.uri("/echo?delay=1000&bytes=32").toString();
            int i = 0;
            for (int r = 1; r <= repeat; r++) {
                for (int connections : levels) {
                    for (String model : models) {
                        Row row = client(model, connections, r, durationS, target, clientsLog);
                        rows.add(row);
                        out.printf("bench: %d/%d %s %d connections: %s%n", ++i, total, model, connections,
                                row.error() != null ? "failed: " + row.error()
                                        : String.format(Locale.ROOT, "%.1f req/s, %.1f s CPU, RSS %d MB, %d threads",
                                        row.throughput(), row.cpuS(), row.peakRssKb() / 1024, row.peakThreads()));
                    }
                }
            }
        }
        provenance = provenance.finishedAfter((System.nanoTime() - started) / 1_000_000_000L);
        provenance.write(dir);
        ConnectionsReport.write(dir, provenance, durationS, rows);
        out.printf("bench: done; %s%n", dir.resolve("connections.md"));
        return rows;
    }

    /** One {@code clients} JVM, sampled while it runs. */
    private static Row client(String model, int connections, int repeat, int durationS, String target, Path log) throws IOException, InterruptedException {
        List<String> command = List.of(ServerProcess.java(), "-cp", System.getProperty("java.class.path"), "loomylin.Main",
                "clients", "--model", model, "--connections", Integer.toString(connections), "--duration", Integer.toString(durationS),
                "--target", target, "--source-addresses", SOURCES, "--format", "json");
        Files.writeString(log, "=== " + model + " " + connections + "\n", java.nio.file.StandardOpenOption.APPEND);
        Path json = Files.createTempFile("loomylin-clients", ".json");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(json.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().keySet().removeIf(k -> k.startsWith("LOOMYLIN_"));
            Process process = ChildProcesses.start(builder);
            ProcSampler.Peaks peaks;
            try (ProcSampler sampler = new ProcSampler(ProcReader.SYSTEM, process.pid(), Duration.ofMillis(500))) {
                sampler.start();
                // opening up to 50,000 connections, the measured period, the drain (at most 30 s), the JVM's start and stop
                if (!process.waitFor(durationS + 180L, TimeUnit.SECONDS)) {
                    ChildProcesses.stop(process, Duration.ofSeconds(5));
                    return failed(model, connections, repeat, "still running after " + (durationS + 180) + " s; killed");
                }
                sampler.close();
                peaks = sampler.peaks();
            }
            String printed = Files.readString(json).strip();
            if (process.exitValue() != 0 || printed.isEmpty()) {
                List<String> lines = Files.readAllLines(log);
                return failed(model, connections, repeat, "exit " + process.exitValue() + ": " + (lines.isEmpty() ? "" : lines.get(lines.size() - 1)));
            }
            Map<?, ?> r = (Map<?, ?>) Json.parse(printed.lines().reduce((a, b) -> b).orElseThrow());
            return new Row(model, connections, repeat, number(r, "completed"), ((Number) r.get("throughput")).doubleValue(),
                    ((Number) r.get("cpuSeconds")).doubleValue(), number(r, "lost"), number(r, "unfinished"),
                    peaks.rssKb(), peaks.vszKb(), peaks.threads(), null);
        } finally {
            Files.deleteIfExists(json);
        }
    }

    private static long number(Map<?, ?> r, String name) {
        return ((Number) r.get(name)).longValue();
    }

    private static Row failed(String model, int connections, int repeat, String error) {
        return new Row(model, connections, repeat, 0, Double.NaN, Double.NaN, 0, 0, 0, 0, 0, error);
    }
}
