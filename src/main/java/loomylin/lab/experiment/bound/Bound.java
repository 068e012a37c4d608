package loomylin.lab.experiment.bound;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import loomylin.lab.engine.Runner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.lab.engine.run.Calibration;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.load.WrkRun;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.ClientLimit;
import loomylin.lab.engine.run.CpuSplit;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStatus;

/**
 * {@code bench --preset bound}: what each pool shape does when the load exceeds its bound, with and without
 * {@code --max-in-flight}. Every (load, pool, limit) is one run on a fresh server JVM with its admin port on:
 * a short wrk warm-up on the cheap probe request, then wrk closed-loop for a fixed {@code --duration} while /proc (OS threads, RSS) and the
 * admin port's /metrics (Jetty's queue, the limit's queue, tasks waiting for a VirtualThreadPool permit,
 * virtual threads waiting for a carrier, heap) are sampled, and where the machine's CPU went over it is recorded and
 * marked by the engine's rules ({@link CpuSplit}: the server JVM's, wrk's, the machine's busy share); then probes until the server answers a cheap
 * request promptly again (recovered) or {@link #RECOVERY_BOUND} passes.
 *
 * <p>Three loads, each past a bound: {@code blocking} (100 ms waits, more clients than the capped pools'
 * {@link #BOUND} threads or permits), {@code cpu} (the fibers-server seed's overload cell: its 1 s request, 5 %
 * CPU and 15 % file, at 2000 clients) and {@code bodies} (the seed's experiment 2 request of 100 ms with a
 * multi-megabyte body, at 500 clients, on {@link #BODIES_POOL} only: the collapse of a capped VirtualThreadPool
 * whose permits are held by blocked writes). The limit of each load: for blocking, the capped pools' request
 * threads; for cpu and bodies, Little's law on the cores: cores x request time / the request's busy time (its
 * CPU and file parts as the bench's {@link Calibration} measures them), the most requests the cores can keep
 * in progress without queueing. The runs are the {@link Runner}'s (one round of every cell, in load, pool, limit
 * order): bound.csv (a row per run, as it goes; a second run into the same {@code --out} adds its rows under the
 * next invocation), its provenance, servers.log. Around them: the calibration before, bound-series.csv (every
 * scrape of every run: which figure rises first once the load crosses the bound) as each run ends, and bound.md
 * with a chart per load from the invocation's runs as it ends.
 */
public final class Bound {
    public static final String NAME = "bound";

    /** The bench flags --preset bound reads; any other is refused with one line. */
    public static final java.util.Set<String> FLAGS = java.util.Set.of("preset", "pools", "concurrency", "duration", "heap", "out", "timeout",
            "twin", "wrk", "help");
    /** The thread or task bound of the capped pools. */
    public static final int BOUND = 64;
    public static final List<String> POOLS = List.of("qtp:" + BOUND, "loom", "jetty-vtp", "jetty-vtp:" + BOUND, "qtp-vt:8", "qtp-vtp:8:" + BOUND);
    public static final String BODIES_POOL = "jetty-vtp:400";
    /** Clients of the blocking, cpu and bodies loads. */
    public static final List<Integer> CONCURRENCY = List.of(1000, 2000, 500);
    public static final Duration DURATION = Duration.ofSeconds(20);
    public static final Duration WARMUP = Duration.ofSeconds(1);
    public static final String HEAP = "1g";
    /** A probe answered within this is prompt. */
    public static final Duration PROMPT = Duration.ofSeconds(1);
    public static final Duration RECOVERY_BOUND = Duration.ofSeconds(15);
    static final String PROBE = "/wait-blocking?ms=1";
    static final Duration SAMPLE_EVERY = Duration.ofMillis(250);
    /** Descriptors a server or wrk needs besides one socket per client: jars, logs, epoll, pipes. */
    static final int SPARE_FILES = 200;
    /** Server start, warm-up, recovery and stop, per run, for the estimate printed at the start. */
    static final int OVERHEAD_S = 10;
    public static final String CSV = "bound.csv";
    /** Every scrape of every run, after the run's invocation, load, pool and limit. */
    public static final String SERIES = "bound-series.csv";
    static final String SERIES_HEADER = "invocation,load,pool,max_in_flight," + QueueSampler.SERIES_HEADER;

    /** One run's what: a load on a pool, without ({@code limit} 0) or with {@code --max-in-flight limit}. */
    record Cell(Load load, String pool, int limit) {
    }

    /** One load past a bound: its route, clients, the pools it runs on, and the in-flight limit of its limited runs. */
    record Load(String name, String description, String pathAndQuery, int concurrency, int limit, List<String> pools) {
    }

    /**
     * One run. {@code limit} 0 = no --max-in-flight. {@code refused}: answers other than 2xx (the limit's and
     * a stopping server's 503s); {@code unanswered}: requests wrk gave up on (its timeout) or whose connection
     * failed. Peaks are -1 where the server has no such figure; {@code recoveryS} NaN = not recovered within
     * {@link #RECOVERY_BOUND}; {@code failure} non-null = no figures (the server did not start, or wrk failed).
     * {@code invocation}: which run of the preset into the same {@code --out} made it (the committed files, written
     * before the preset ran on the {@link Runner}, have none: it reads as 0). {@code cpu}: where the machine's CPU went over
     * the load (the server JVM's, wrk's, the machine's busy share) and its marks ({@link CpuSplit}; {@link CpuSplit#NONE}
     * in the committed files, made before it was recorded: they cannot be judged).
     */
    record Row(int invocation, String load, String pool, int limit, int concurrency, String query, long sent, long ok, long refused, long unanswered,
               double rps, double p99Ms, double poolQueued, double admissionQueued, double tasksWaiting, double carrierQueued,
               int idleThreads, int peakThreads, double heapGrowthMb, double rssGrowthMb, double recoveryS, int failedScrapes, CpuSplit cpu, String failure) {

        boolean recovered() {
            return !Double.isNaN(recoveryS);
        }

        /** Where the run put the excess: refused it, queued it (and where), grew threads; "collapsed" when almost nothing was answered. */
        String behaviour() {
            if (failure != null) return "N/A";
            List<String> what = new ArrayList<>();
            long answered = ok + refused;
            if (refused > 0.01 * Math.max(1, answered)) what.add("refuses");
            String queue = null;
            double most = 0;
            for (Map.Entry<String, Double> q : Map.of("Jetty's queue", poolQueued, "the limit's queue", admissionQueued,
                    "permit waits", tasksWaiting, "carrier queue", carrierQueued).entrySet()) {
                if (q.getValue() > most) {
                    most = q.getValue();
                    queue = q.getKey();
                }
            }
            if (most >= 1) what.add("queues (" + queue + ")");
            if (peakThreads > 2 * idleThreads + 50) what.add("grows threads");
            if (ok < 0.05 * concurrency) what.add("collapses");
            return what.isEmpty() ? "keeps up" : String.join(", ", what);
        }
    }

    private Bound() {
    }

    /** The flags {@code --preset bound} reads, read once: the clients are those of the blocking, cpu and bodies loads. */
    record Options(PresetOptions common, List<String> pools, List<Integer> clients, Duration duration, loomylin.lab.engine.load.ClientTool wrk) {
        static Options of(Flags flags) {
            List<String> pools = PresetOptions.poolLabels(flags, POOLS);
            List<Integer> clients = concurrency(flags);
            Duration duration = wholeSeconds(flags, NAME, DURATION);
            int most = clients.stream().mapToInt(Integer::intValue).max().orElse(0);
            requireOpenFiles(most, "--concurrency " + most, " or lower --concurrency");
            return new Options(PresetOptions.of(flags, HEAP), pools, clients, duration, PresetOptions.client(flags, Client.WRK));
        }
    }

    /** {@code --duration} in whole seconds (wrk's and oha's unit), {@code fallback} when not given. */
    static Duration wholeSeconds(Flags flags, String preset, Duration fallback) {
        Duration d = flags.duration("duration", fallback, Duration.ofSeconds(1), Duration.ofMinutes(10));
        if (d.toMillis() % 1000 != 0) throw new UsageError("--duration for " + preset + " must be whole seconds such as 20s, got " + flags.get("duration"));
        return d;
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        return run(Options.of(flags), commandLine, out);
    }

    static Path run(Options o, String commandLine, PrintStream out) {
        Duration duration = o.duration();
        Path wrk = o.wrk().locate();
        Path dir = o.common().out();
        int cores = Runtime.getRuntime().availableProcessors();
        Calibration calibration;
        try {
            calibration = Calibration.measure();
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
        out.printf(Locale.ROOT, "bench: preset %s: %.0f SHA-256 iterations per ms, %.0f file bytes per ms%n", NAME, calibration.iterationsPerMs(),
                calibration.fileBytesPerMs());
        List<Load> loads = loads(calibration, cores, o.clients(), o.pools());
        List<Cell> cells = new ArrayList<>();
        for (Load load : loads) for (String pool : load.pools()) for (int limit : List.of(0, load.limit())) cells.add(new Cell(load, pool, limit));
        String intro = String.format(Locale.ROOT, "wrk for %s each, about %d minutes", loomylin.server.cli.Durations.go(duration),
                (cells.size() * (duration.toSeconds() + OVERHEAD_S) + 59) / 60);
        Runner.Plan<Row> plan = new Runner.Plan<>("preset " + NAME, dir, CSV, BoundReport.TABLE, 1, 1, Map.of("wrk", ClientBinary.version(Client.WRK, wrk)),
                Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS), commandLine, intro);
        Path series = dir.resolve(SERIES);
        new Runner<>(plan, new Runner.Experiment<Cell, Row>() {
            @Override
            public List<Cell> cells() {
                return cells;
            }

            @Override
            public String describe(Cell cell) {
                return cell.load().name() + " " + cell.pool() + " " + (cell.limit() == 0 ? "no limit" : "--max-in-flight " + cell.limit());
            }

            @Override
            public Row measure(Cell cell, Runner.Trial t) throws IOException {
                return one(t, cell, o.common().twin(), o.common().heap(), wrk, duration, o.common().timeoutS(), cores, series);
            }

            @Override
            public Row failed(Cell cell, Runner.Trial t, String why) {
                Load load = cell.load();
                return new Row(t.invocation(), load.name(), cell.pool(), cell.limit(), load.concurrency(), load.pathAndQuery(), 0, 0, 0, 0, 0, Double.NaN,
                        -1, -1, -1, -1, -1, -1, Double.NaN, Double.NaN, Double.NaN, 0, CpuSplit.NONE, why.length() > 160 ? why.substring(0, 160) + "..." : why);
            }

            @Override
            public String summary(Row row) {
                return row.failure() != null ? "N/A (" + row.failure() + ")" : String.format(Locale.ROOT, "%.1f req/s, %d refused, %d unanswered, %s, %s%s",
                        row.rps(), row.refused(), row.unanswered(), row.behaviour(), row.recovered() ? "recovered" : "not recovered",
                        row.cpu().marked() ? ", MARKED: " + row.cpu().why() : "");
            }

            @Override
            public void ended(int invocation, List<Row> rows, Provenance provenance) throws IOException {
                BoundReport.write(dir, invocation, provenance, loads, rows, duration, cores);
            }
        }, out).run();
        out.printf("bench: done; %s%n", dir.resolve("bound.md"));
        return dir;
    }

    /** One line and exit 2 when the open-file limit is below {@code clients} sockets plus {@link #SPARE_FILES}. */
    static void requireOpenFiles(int clients, String what, String orElse) {
        java.util.OptionalLong openFiles = loomylin.server.proc.ProcLimits.openFiles(loomylin.server.proc.ProcLimits.SELF);
        if (openFiles.isPresent() && openFiles.getAsLong() < clients + SPARE_FILES)
            throw new UsageError(what + " needs about " + (clients + SPARE_FILES) + " open files per process, but the limit is "
                    + openFiles.getAsLong() + "; raise it (ulimit -n " + (clients + SPARE_FILES) + ")" + orElse);
    }

    /** The three loads on this machine; {@code clients} = blocking, cpu, bodies. */
    static List<Load> loads(Calibration calibration, int cores, List<Integer> clients, List<String> pools) {
        String cpu = calibration.query(Calibration.FIBERS_SEED_MIXES.get(0), 1000, loomylin.server.web.Limits.DATA_FILE_BYTES_DEFAULT);
        String bodies = calibration.query(Calibration.FIBERS_SEED_MIXES.get(1), 100, loomylin.server.web.Limits.DATA_FILE_BYTES_DEFAULT);
        return List.of(
                new Load("blocking", "100 ms blocking waits", "/wait-blocking?ms=100", clients.get(0), BOUND - JettySetup.LOOP_THREADS, pools),
                new Load("cpu", "the fibers-server seed's 1 s request (80 % sleep, 15 % file, 5 % CPU)", "/" + cpu, clients.get(1),
                        littlesLimit(calibration, cores, cpu, 1000), pools),
                new Load("bodies", "the seed's 100 ms request (95 % sleep, 4 % file, 1 % CPU) with its large body", "/" + bodies, clients.get(2),
                        littlesLimit(calibration, cores, bodies, 100), List.of(BODIES_POOL)));
    }

    /**
     * Little's law on the cores: a request keeps a core busy for its CPU and file parts, so the cores finish at
     * most cores / busy requests per second; at that rate, requests of {@code requestMs} are
     * cores x requestMs / busy in progress at once. More admitted only wait for a core.
     */
    static int littlesLimit(Calibration calibration, int cores, String mixedQuery, int requestMs) {
        Map<String, Long> p = new LinkedHashMap<>();
        for (String pair : mixedQuery.substring(mixedQuery.indexOf('?') + 1).split("&")) {
            String[] kv = pair.split("=", 2);
            p.put(kv[0], Long.parseLong(kv[1]));
        }
        double busyMs = p.getOrDefault("cpu", 0L) / calibration.iterationsPerMs() + calibration.readMs(p.getOrDefault("file", 0L));
        return (int) Math.max(1, Math.round(cores * requestMs / Math.max(busyMs, 0.001)));
    }

    /** One run of {@code cell}; its scrapes join {@code series} (its header written first when the file is new). */
    private static Row one(Runner.Trial t, Cell cell, String twin, String heap, Path wrk, Duration duration, int timeoutS, int cores, Path series)
            throws IOException {
        Load load = cell.load();
        String pool = cell.pool();
        int limit = cell.limit();
        int adminPort = FreePort.pick();
        List<String> more = new ArrayList<>(List.of("--admin-port", Integer.toString(adminPort)));
        if (limit > 0) more.addAll(List.of("--max-in-flight", Integer.toString(limit)));
        URI unused = URI.create("http://" + ServerProcess.HOST + ":1");
        ServerProcess server = ServerProcess.server(List.of(), pool, twin, heap, FreePort.pick(), unused, HopClientKind.JDK, t.log(), more);
        try {
            server.awaitPool(pool, twin);
            URI metrics = URI.create("http://" + ServerProcess.HOST + ":" + adminPort + "/metrics");
            URI url = server.uri(load.pathAndQuery());
            try (ProcSampler proc = new ProcSampler(ProcReader.SYSTEM, server.pid(), SAMPLE_EVERY);
                 QueueSampler queues = new QueueSampler(metrics, SAMPLE_EVERY)) {
                // the warm-up loads the cheap probe, not the load itself: a warm-up past the bound would leave a backlog
                // (requests whose clients have gone still run) that the measured window would start behind
                // and, with a limit, no more clients than it admits: a burst past the limit is a load of its own
                int warmupClients = Math.min(load.concurrency(), limit > 0 ? Math.min(limit, 50) : 50);
                WrkRun.measure(wrk, server.uri(PROBE), (int) WARMUP.toSeconds(), warmupClients, timeoutS, cores, proc);
                ProcStatus idle = ProcReader.SYSTEM.status(server.pid())
                        .orElseThrow(() -> new StartupFailure("server exited after the warm-up: " + server.outputTail()));
                double idleHeap = QueueSampler.heapUsedBytes(metrics);
                proc.start();
                queues.start();
                CpuSplit.Watch watch = CpuSplit.watch(server.pid());
                Measured m = WrkRun.measure(wrk, url, (int) duration.toSeconds(), load.concurrency(), timeoutS, cores, proc);
                CpuSplit cpu = watch.end(m.clientCpuS(), cores, ClientLimit.DEFAULT_PCT);
                queues.close();
                proc.close();
                double recoveryS = recovery(server);
                if (!server.alive()) throw new StartupFailure("server exited during the run: " + server.outputTail());
                ProcSampler.Peaks p = proc.peaks();
                QueueSampler.Peaks q = queues.peaks();
                StringBuilder lines = new StringBuilder(Files.exists(series) ? "" : SERIES_HEADER + "\n");
                for (String line : queues.series())
                    lines.append(t.invocation()).append(',').append(load.name()).append(',').append(pool).append(',').append(limit).append(',').append(line).append('\n');
                Files.writeString(series, lines.toString(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                return new Row(t.invocation(), load.name(), pool, limit, load.concurrency(), load.pathAndQuery(), m.sent(), m.ok(), m.answered() - m.ok(),
                        m.sent() - m.answered(), m.ok() / m.wallS(), m.latency().p99Ms(), q.poolQueued(), q.admissionQueued(), q.tasksWaiting(),
                        q.carrierQueued(), idle.threads(), Math.max(p.threads(), idle.threads()),
                        q.heapUsedBytes() < 0 || idleHeap < 0 ? Double.NaN : Math.max(0, q.heapUsedBytes() - idleHeap) / (1024 * 1024),
                        Math.max(0, p.rssKb() - Math.max(idle.rssKb(), 0)) / 1024.0, recoveryS, q.failed(), cpu, null);
            }
        } finally {
            server.close();
        }
    }

    /** Seconds from the end of the load until a probe answers 200 within {@link #PROMPT}; NaN if none does within the bound. */
    static double recovery(ServerProcess server) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < RECOVERY_BOUND.toNanos()) {
            if (prompt(server.uri(PROBE))) return (System.nanoTime() - start) / 1e9;
            if (!server.alive()) return Double.NaN;
            try {
                Thread.sleep(SAMPLE_EVERY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Double.NaN;
            }
        }
        return Double.NaN;
    }

    private static boolean prompt(URI probe) {
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) probe.toURL().openConnection();
            c.setConnectTimeout((int) PROMPT.toMillis());
            c.setReadTimeout((int) PROMPT.toMillis());
            c.setRequestProperty("Connection", "close");
            if (c.getResponseCode() != 200) return false;
            try (InputStream in = c.getInputStream()) {
                in.readAllBytes();
            }
            return true;
        } catch (IOException e) {
            return false; // not within PROMPT, or refused
        } finally {
            if (c != null) c.disconnect();
        }
    }

    private static List<Integer> concurrency(Flags flags) {
        List<String> raw = flags.commaList("concurrency", CONCURRENCY.stream().map(String::valueOf).toList());
        if (raw.size() != 3) throw new UsageError("--concurrency for bound takes three client counts: blocking, cpu, bodies, e.g. 1000,2000,500");
        return raw.stream().map(c -> {
            if (!c.matches("\\d{1,5}") || Integer.parseInt(c) < 1 || Integer.parseInt(c) > 10_000)
                throw new UsageError("--concurrency takes whole numbers from 1 to 10000, got '" + loomylin.server.web.Params.printable(c) + "'");
            return Integer.parseInt(c);
        }).toList();
    }
}
