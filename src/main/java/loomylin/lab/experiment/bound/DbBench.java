package loomylin.lab.experiment.bound;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import loomylin.lab.engine.Runner;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.load.OhaRun;
import loomylin.lab.engine.load.WrkRun;
import loomylin.lab.engine.measure.HttpGet;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.measure.Periodic;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.run.ClientLimit;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.lab.engine.run.RunExecutor;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Timed;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.lab.engine.run.Warmth;
import loomylin.lab.engine.run.Warmup;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.db.DbOptions;
import loomylin.server.db.DbStartFailure;
import loomylin.server.db.LocalPostgres;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStat;

/**
 * {@code bench --preset db}: the connection pool as the bound. Every server reads {@code /db-blocking?ms=}
 * {@value #QUERY_MS} (one indexed row, {@value #QUERY_MS} ms of {@code pg_sleep} on the database) from one
 * PostgreSQL of the bench's own ({@link LocalPostgres}), through a HikariCP pool of {@code --db-pools} connections
 * that waits {@value #DB_TIMEOUT_MS} ms for one; or, with {@code --db-client vertx}, {@code /db-async} through
 * Vert.x's pool of as many connections ({@link DbClient}). With {@code --max-in-flight N} every server admits N
 * requests at once and lets the rest wait as long as the pool's timeout for a slot: admission at the door beside
 * the pool's timeout ({@link Setup}). Little's law bounds every server at connections / query time,
 * whatever its thread model; each pool shape gets two loads per database pool on a fresh server JVM: open loop at
 * {@link #OPEN_SHARE} of that bound (what the thread model costs below it: server and PostgreSQL CPU per answer,
 * OS threads, latency) and closed loop with {@value #CLOSED_CLIENTS} clients (past it: goodput against the bound,
 * the 503s of the pool's timeout, and where the queue sits: Jetty's queue, the pool's pending requests,
 * PostgreSQL's active sessions).
 *
 * <p>Before each run the database is reset (every other session ended, none active) so that one run's queries
 * cannot cost the next; then a wrk warm-up on {@code ms=0} with no more clients than connections, in slices of
 * {@code --warmup} ({@link #SLICE}) until the server's JIT is quiet and two slices in a row cost the same CPU per
 * answer ({@link Warmup}, as the fixed-rate runs warm up: at most {@link RunExecutor#MAX_WARMUP_SLICES}, else the
 * run is cold and decides nothing); the window's CPU is split by thread ({@link Warmth}). PostgreSQL's CPU (its
 * postmaster, every backend, the ones that ended) is measured apart from the server's. The runs are the
 * {@link Runner}'s: repeats are its rounds, interleaved; {@code --invocations N} runs the plan N times, each
 * on a PostgreSQL of its own, and a run again with the same {@code --out} adds up as the next invocation
 * ({@link Invocations}). Writes db.csv, db.md and provenance.json.
 */
public final class DbBench {
    public static final String NAME = "db";
    static final String CSV = "db.csv";
    public static final Set<String> FLAGS = Set.of("preset", "pools", "db-pools", "duration", "repeat", "heap", "out", "timeout", "twin", "wrk", "oha",
            "rerender", "java", "db-client", "max-in-flight", "max-in-flight-wait-ms", "warmup", "invocations", "help");
    public static final List<String> POOLS = List.of("qtp:200", "loom");
    public static final List<Integer> DB_POOLS = List.of(10, 50);
    public static final int QUERY_MS = 100;
    public static final double OPEN_SHARE = 0.8;
    public static final int CLOSED_CLIENTS = 1000;
    public static final int DB_TIMEOUT_MS = 1000;
    public static final Duration WINDOW = Duration.ofSeconds(30);
    /**
     * One warm-up slice ({@code --warmup}): a run's warm-up lasts at least two, 8 s, and at most
     * {@link RunExecutor#MAX_WARMUP_SLICES}, 32 s, as the general bench's publishing presets' do.
     */
    public static final Duration SLICE = Duration.ofSeconds(4);
    /** The one-piece warm-up of the runs recorded before the warm-up waited for the JIT (issue 50): their page says it. */
    static final Duration FIXED_WARMUP = Duration.ofSeconds(5);
    public static final int REPEAT = 3;
    static final int OPEN_CONNECTIONS = 300;
    static final Duration SAMPLE_EVERY = Duration.ofMillis(250);
    /** Client and server (with PostgreSQL) together this busy, in percent of the machine, mark a run client-limited. */
    static final int BUSY_PCT = 90;

    /** One load: open loop at a share of Little's bound, or closed loop with {@link #CLOSED_CLIENTS}. */
    record Variant(String name, boolean open) {
    }

    static final List<Variant> VARIANTS = List.of(new Variant(String.format(Locale.ROOT, "open %.1fx", OPEN_SHARE), true),
            new Variant("closed " + CLOSED_CLIENTS, false));

    /**
     * One run. {@code bound}: Little's law on the database pool, connections x 1000 / {@link #QUERY_MS}, req/s;
     * {@code goodput}: 2xx answers per second of the window; {@code refused}: answers other than 2xx (the pool's
     * 503s); {@code serverCpuMs}, {@code pgCpuMs}: CPU milliseconds per 2xx answer; the peaks are the largest
     * seen in the window's samples ({@code peakRssMb}: the server JVM's resident memory at its highest, VmHWM, warm-up
     * included; {@code peakAdmissionQueued}: -1 without {@code --max-in-flight}); {@code clientLimited}: the client, or the machine, was the limit
     * ({@link ClientLimit}), or an open loop sent less than 95 % of its rate; {@code warmth}: whether the warm-up
     * ended with the JIT quiet, each slice's cost and JIT share, the window's CPU by thread ({@link Warmth#NONE} in
     * runs recorded before the warm-up waited for the JIT, which are not cold: it is not known).
     */
    record Row(int invocation, int repeat, String pool, int dbPool, String load, int bound, int offered, long sent, long ok, long refused,
               long errors, double goodput, double okP50Ms, double okP99Ms, double serverCpuMs, double pgCpuMs, double clientPct, int peakJettyQueue,
               int peakDbPending, int peakInFlight, int peakPgActive, int peakOsThreads, double peakRssMb, int peakAdmissionQueued, long dbTimeouts,
               boolean clientLimited, String failure, Warmth warmth) {
        /** Whether this run may decide anything: no failure, not client-limited, not cold. */
        boolean decides() {
            return failure == null && marks().isEmpty();
        }

        /** What keeps a run that did not fail out of every median, in the words the other pages use; empty when nothing does. */
        List<String> marks() {
            List<String> marks = new ArrayList<>();
            if (warmth.cold()) marks.add("cold");
            if (clientLimited) marks.add("client-limited");
            return marks;
        }
    }

    private DbBench() {
    }

    static int bound(int dbPool) {
        return dbPool * 1000 / QUERY_MS;
    }

    /**
     * What every server of one {@code --out} runs with besides its pools: the client behind the read, and
     * {@code --max-in-flight} (0 = none, else waiting {@code waitMs} for a slot, by default {@value #DB_TIMEOUT_MS} ms,
     * as long as for a connection). The report says all three, and {@code --rerender} reads them back from it.
     */
    record Setup(DbClient client, int maxInFlight, int waitMs) {
        static final Setup DEFAULT = new Setup(DbClient.JDBC, 0, DB_TIMEOUT_MS);
        private static final java.util.regex.Pattern LIMIT = java.util.regex.Pattern.compile("behind `--max-in-flight (\\d+) --max-in-flight-wait-ms (\\d+)`");

        /** The server flags it adds. */
        List<String> serverFlags() {
            return maxInFlight == 0 ? List.of()
                    : List.of("--max-in-flight", Integer.toString(maxInFlight), "--max-in-flight-wait-ms", Integer.toString(waitMs));
        }

        /** The report's sentence on admission, "" without it. */
        String admission() {
            if (maxInFlight == 0) return "";
            String wait = waitMs == DB_TIMEOUT_MS ? "as long as for a connection" : waitMs + " ms, where a connection is waited for " + DB_TIMEOUT_MS + " ms";
            return String.format(Locale.ROOT, " Every server runs behind `--max-in-flight %d --max-in-flight-wait-ms %d`:"
                    + " %d requests at once, the rest wait for a slot %s, then `503`.", maxInFlight, waitMs, maxInFlight, wait);
        }

        /** The setup a report written by {@link DbReport} was measured with. */
        static Setup ofReport(String md) {
            java.util.regex.Matcher m = LIMIT.matcher(md);
            return m.find() ? new Setup(DbClient.ofReport(md), Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))
                    : new Setup(DbClient.ofReport(md), 0, DB_TIMEOUT_MS);
        }
    }

    /** The flags {@code --preset db} reads, read once: {@code slice} is one warm-up slice, {@code invocations} how often the plan runs. */
    record Options(RunFlags run, List<String> pools, List<Integer> dbPools, Setup setup, Duration slice, int invocations) {
        static Options of(Flags flags) {
            List<String> pools = PresetOptions.poolLabels(flags, POOLS);
            List<Integer> dbPools = flags.commaList("db-pools", DB_POOLS.stream().map(String::valueOf).toList()).stream()
                    .map(n -> UsageError.parsing(v -> {
                        int i = Integer.parseInt(v);
                        if (i < 1 || i > 200) throw new IllegalArgumentException("--db-pools: each from 1 to 200, got " + v);
                        return i;
                    }, n)).toList();
            DbClient client = UsageError.parsing(DbClient::parse, flags.get("db-client") == null ? "jdbc" : flags.get("db-client"));
            int maxInFlight = flags.integer("max-in-flight", 0, 0, 100_000);
            if (maxInFlight == 0 && flags.get("max-in-flight-wait-ms") != null)
                throw new UsageError("--max-in-flight-wait-ms is how long a request waits for --max-in-flight's slot: give --max-in-flight N too");
            int waitMs = flags.integer("max-in-flight-wait-ms", DB_TIMEOUT_MS, 0, 600_000);
            Duration slice = flags.duration("warmup", SLICE, Duration.ofSeconds(1), Duration.ofMinutes(1));
            if (slice.toMillis() % 1000 != 0) throw new UsageError("--warmup for " + NAME + " is one warm-up slice of wrk, whole seconds such as 4s, got " + flags.get("warmup"));
            int invocations = flags.integer("invocations", 1, 1, 5);
            return new Options(RunFlags.read(flags, NAME, WINDOW, REPEAT, CLOSED_CLIENTS), pools, dbPools, new Setup(client, maxInFlight, waitMs), slice,
                    invocations);
        }
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        if (flags.on("rerender"))
            return rerender(Path.of(flags.get("out")).toAbsolutePath(), Bound.wholeSeconds(flags, NAME, WINDOW), out);
        return run(Options.of(flags), commandLine, out);
    }

    /** One run's what: a pool shape, a database pool of that many connections, one load. */
    record Cell(String pool, int dbPool, Variant variant) {
        /** The requests per second an open loop offers: {@link #OPEN_SHARE} of Little's bound; 0 for a closed loop. */
        int offered() {
            return variant.open() ? (int) Math.round(OPEN_SHARE * bound(dbPool)) : 0;
        }
    }

    /**
     * Runs the plan {@code --invocations} times, each on a PostgreSQL of its own started for it (as each invocation of
     * the general bench has a backend JVM of its own): every pool shape, database pool and load on the {@link Runner}
     * (repeats as its rounds; each run resets the database rather than starting its own). After each invocation db.md
     * is written from every row of db.csv, earlier invocations' too.
     */
    static Path run(Options o, String commandLine, PrintStream out) {
        RunFlags run = o.run();
        Path wrk = run.wrk().locate();
        Path oha = run.oha().locate();
        Path dir = run.dir();
        int cores = Runtime.getRuntime().availableProcessors();
        int maxPool = o.dbPools().stream().mapToInt(Integer::intValue).max().orElse(10);
        List<Cell> cells = new ArrayList<>();
        for (String pool : o.pools()) for (int dbPool : o.dbPools()) for (Variant v : VARIANTS) cells.add(new Cell(pool, dbPool, v));
        for (int i = 1; i <= o.invocations(); i++) {
            if (o.invocations() > 1) out.printf("bench: invocation %d of %d%n", i, o.invocations());
            invocation(o, cells, maxPool, wrk, oha, cores, commandLine, out);
        }
        out.printf("bench: done; %s%n", dir.resolve("db.md"));
        return dir;
    }

    /** One invocation: its PostgreSQL, every cell's runs on the {@link Runner}, then db.md. */
    private static void invocation(Options o, List<Cell> cells, int maxPool, Path wrk, Path oha, int cores, String commandLine, PrintStream out) {
        Setup setup = o.setup();
        RunFlags run = o.run();
        Duration window = run.window();
        Path dir = run.dir();
        try (LocalPostgres pg = LocalPostgres.start(null, 2 * maxPool + 20)) {
            DbOptions admin = pg.options(1, DB_TIMEOUT_MS);
            Map<String, String> tools = Map.of("wrk", ClientBinary.version(Client.WRK, wrk), "oha", ClientBinary.version(Client.OHA, oha), "postgresql",
                    pg.version());
            String intro = String.format(Locale.ROOT, "%d s windows, about %d minutes; %s?ms=%d through %s connections%s", window.toSeconds(),
                    (cells.size() * run.repeat() * (window.toSeconds() + Warmup.MIN_SLICES * o.slice().toSeconds() + Bound.OVERHEAD_S) + 59) / 60,
                    setup.client().route, QUERY_MS, o.dbPools(), setup.maxInFlight() == 0 ? "" : ", --max-in-flight " + setup.maxInFlight());
            Runner.Plan<Timed<Row>> plan = new Runner.Plan<>("preset " + NAME, dir, CSV, DbReport.TABLE, 1, run.repeat(), tools, RunFlags.CPU_SETS,
                    commandLine, intro);
            List<Timed<Row>> made = new Runner<>(plan, new Runner.Experiment<Cell, Timed<Row>>() {
                @Override
                public List<Cell> cells() {
                    return cells;
                }

                @Override
                public String describe(Cell cell) {
                    return cell.pool() + " db-pool " + cell.dbPool() + " " + cell.variant().name();
                }

                @Override
                public Timed<Row> measure(Cell cell, Runner.Trial t) throws IOException, InterruptedException {
                    return new Timed<>(one(t, cell, setup, pg, admin, run, o.slice(), wrk, oha, cores), RunResult.When.since(t.start(), t.load1()));
                }

                @Override
                public Timed<Row> failed(Cell cell, Runner.Trial t, String why) {
                    return new Timed<>(DbBench.failed(t, cell, RunFlags.failure(why)), RunResult.When.since(t.start(), t.load1()));
                }

                @Override
                public String summary(Timed<Row> timed) {
                    Row row = timed.row();
                    return row.failure() != null ? "N/A (" + row.failure() + ")" : String.format(Locale.ROOT,
                            "goodput %.1f req/s (%.2f of %d), 2xx p99 %s ms, %d refused, server %.2f ms (JIT %s) + PostgreSQL %.2f ms CPU per answer%s",
                            row.goodput(), row.goodput() / row.bound(), row.bound(), RunResult.fixed(row.okP99Ms(), 0), row.refused(), row.serverCpuMs(),
                            RunResult.fixed(row.warmth().jitMsPer(row.ok()), 3), row.pgCpuMs(),
                            row.marks().isEmpty() ? "" : ", " + String.join(", ", row.marks()).toUpperCase(Locale.ROOT));
                }
            }, out).run();
            // The report's provenance is read as the run ends, as it always was; provenance.json keeps the Runner's, read as it began.
            DbReport.write(dir, Provenance.collect(commandLine, dir, tools, RunFlags.CPU_SETS), made.getFirst().row().invocation(),
                    DbReport.rows(dir.resolve(CSV)), window, setup);
        } catch (DbStartFailure | IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    /**
     * One run on a fresh server JVM: the database reset, a warm-up of {@code slice}s until the JIT is quiet (or the
     * run is cold), then the load with PostgreSQL's CPU, the server's split by thread and the queues' peaks beside it.
     */
    private static Row one(Runner.Trial t, Cell cell, Setup setup, LocalPostgres pg, DbOptions admin, RunFlags run, Duration slice, Path wrk, Path oha,
                           int cores)
            throws IOException, InterruptedException {
        try {
            reset(admin);
        } catch (SQLException e) {
            return failed(t, cell, "could not reset the database: " + e.getMessage());
        }
        String pool = cell.pool();
        int dbPool = cell.dbPool();
        Variant v = cell.variant();
        Duration window = run.window();
        int timeoutS = run.timeoutS();
        int bound = bound(dbPool);
        int offered = cell.offered();
        int adminPort = FreePort.pick();
        String url = admin.jdbcUrl() + "?user=" + admin.user() + "&password=" + admin.password();
        List<String> more = new ArrayList<>(List.of("--admin-port", Integer.toString(adminPort), "--db-url", url, "--db-pool", Integer.toString(dbPool),
                "--db-timeout-ms", Integer.toString(DB_TIMEOUT_MS)));
        more.addAll(setup.serverFlags());
        URI unused = URI.create("http://" + ServerProcess.HOST + ":1");
        ServerProcess server = ServerProcess.server(List.of(), pool, run.twin(), run.heap(), FreePort.pick(), unused, HopClientKind.JDK, t.log(), more);
        try {
            server.awaitPool(pool, run.twin());
            URI metrics = URI.create("http://" + ServerProcess.HOST + ":" + adminPort + "/metrics");
            try (ProcSampler proc = new ProcSampler(ProcReader.SYSTEM, server.pid(), SAMPLE_EVERY);
                 Peaks peaks = new Peaks(metrics, admin, SAMPLE_EVERY)) {
                URI probe = server.uri(setup.client().route + "?ms=0");
                Warmup.Result warmup = Warmup.run(ProcReader.SYSTEM, server.pid(), RunExecutor.MAX_WARMUP_SLICES,
                        () -> WrkRun.measure(wrk, probe, (int) slice.toSeconds(), Math.min(dbPool, 50), timeoutS, cores, proc).ok());
                JvmCpu.Snapshot threads0 = JvmCpu.snapshot(ProcReader.SYSTEM, server.pid());
                double server0 = cpuSeconds(server.pid()), pg0 = postgresCpuSeconds(pg.pid());
                double timeouts0 = metric(metrics, "loomylin_db_connection_timeouts_total");
                proc.start();
                peaks.start();
                URI target = server.uri(setup.client().route + "?ms=" + QUERY_MS);
                OhaRun.Split s = v.open()
                        ? OhaRun.openSplit(oha, target, offered, window, OPEN_CONNECTIONS, timeoutS, proc)
                        : OhaRun.closedSplit(oha, target, window, CLOSED_CLIENTS, timeoutS, proc);
                peaks.stop();
                double serverS = cpuSeconds(server.pid()) - server0, pgS = postgresCpuSeconds(pg.pid()) - pg0;
                JvmCpu threads = JvmCpu.between(threads0, JvmCpu.snapshot(ProcReader.SYSTEM, server.pid()));
                long dbTimeouts = Math.round(metric(metrics, "loomylin_db_connection_timeouts_total") - timeouts0);
                if (!server.alive()) return failed(t, cell, "server exited during the run: " + server.outputTail());
                Measured m = s.all();
                double wallS = Math.max(m.wallS(), window.toSeconds());
                double clientPct = 100 * m.clientCpuS() / (wallS * cores);
                double serverPct = 100 * (serverS + pgS) / (wallS * cores);
                boolean clientLimited = ClientLimit.of(clientPct, serverPct, cores, cores, true, BUSY_PCT)
                        || (v.open() && m.sent() < 0.95 * offered * window.toSeconds());
                return new Row(t.invocation(), t.round(), pool, dbPool, v.name(), bound, offered, m.sent(), m.ok(), m.answered() - m.ok(), s.errors(),
                        m.ok() / (double) window.toSeconds(), s.ok().p50Ms(), s.ok().p99Ms(), m.ok() == 0 ? Double.NaN : 1000 * serverS / m.ok(),
                        m.ok() == 0 ? Double.NaN : 1000 * pgS / m.ok(), clientPct, peaks.jettyQueue, peaks.dbPending, peaks.inFlight, peaks.pgActive,
                        proc.peaks().threads(), proc.peaks().rssKb() / 1024.0, peaks.admissionQueued, dbTimeouts, clientLimited, null,
                        Warmth.of(warmup, threads));
            }
        } finally {
            server.close();
        }
    }

    /** {@code --rerender}: db.md (its title and provenance kept) and db.png written again from --out's db.csv, measuring nothing. */
    static Path rerender(Path dir, Duration window, PrintStream out) {
        Path csv = dir.resolve(CSV);
        if (!Files.isRegularFile(csv) || !Files.isRegularFile(dir.resolve("db.md")))
            throw new UsageError("--rerender: no db.csv and db.md in " + dir);
        try {
            List<Row> rows = DbReport.rows(csv);
            Setup setup = Setup.ofReport(Files.readString(dir.resolve("db.md")));
            DbReport.write(dir, DbReport.head(dir.resolve("db.md"), setup.client()), rows, window, setup);
        } catch (IOException | RuntimeException e) {
            throw new StartupFailure("bench: --rerender: " + e.getMessage());
        }
        out.printf("bench: rendered %s and %s%n", dir.resolve("db.md"), dir.resolve(DbReport.CHART));
        return dir;
    }

    /** Ends every session but this one's and waits (at most 10 s) until none is left, then resets PostgreSQL's statistics. */
    static void reset(DbOptions admin) throws SQLException {
        try (Connection c = admin.connect(); Statement s = c.createStatement()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (true) {
                s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
                try (ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
                    r.next();
                    if (r.getInt(1) == 0 || System.nanoTime() > deadline) break;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            s.execute("SELECT pg_stat_reset()");
        }
    }

    /** The server JVM's CPU seconds so far. */
    private static double cpuSeconds(long pid) {
        return ProcReader.SYSTEM.stat(pid).map(ProcStat::cpuSeconds).orElse(Double.NaN);
    }

    /**
     * PostgreSQL's CPU seconds so far: the postmaster's own and its ended children's ({@code cutime + cstime}), and
     * every live backend's and auxiliary process's.
     */
    static double postgresCpuSeconds(long postmaster) {
        double ticks = ProcReader.SYSTEM.stat(postmaster).map(s -> (double) s.cpuTicks() + s.childrenTicks()).orElse(Double.NaN);
        for (ProcessHandle child : ProcessHandle.of(postmaster).map(h -> h.descendants().toList()).orElse(List.of()))
            ticks += ProcReader.SYSTEM.stat(child.pid()).map(s -> (double) s.cpuTicks()).orElse(0.0);
        return ticks / ProcStat.TICKS_PER_SECOND;
    }

    private static double metric(URI metrics, String name) {
        try {
            return PrometheusText.parse(HttpGet.ok("metrics", metrics)).all(name).stream().mapToDouble(PrometheusText.Sample::value).sum();
        } catch (StartupFailure | IllegalArgumentException e) {
            return Double.NaN;
        }
    }

    /**
     * The window's peaks of where requests wait: Jetty's queue, the pool's pending requests, in flight, PostgreSQL's
     * active sessions, the admission limit's queue (-1 without {@code --max-in-flight}).
     */
    static final class Peaks implements AutoCloseable {
        private final URI metrics;
        private final DbOptions admin;
        private final Periodic periodic;
        private Connection connection;
        volatile int jettyQueue = -1, dbPending = -1, inFlight = -1, pgActive = -1, admissionQueued = -1;

        Peaks(URI metrics, DbOptions admin, Duration every) {
            this.metrics = metrics;
            this.admin = admin;
            this.periodic = new Periodic("db-peaks", every, this::sample);
        }

        void start() {
            periodic.start();
        }

        void stop() {
            periodic.stop(Duration.ofSeconds(5));
        }

        private void sample() {
            try {
                PrometheusText m = PrometheusText.parse(HttpGet.ok("metrics", metrics));
                jettyQueue = Math.max(jettyQueue, (int) max(m, "loomylin_pool_queued_tasks"));
                dbPending = Math.max(dbPending, (int) max(m, "loomylin_db_pending"));
                inFlight = Math.max(inFlight, (int) max(m, "loomylin_requests_in_flight"));
                admissionQueued = Math.max(admissionQueued, (int) max(m, "loomylin_admission_queued"));
            } catch (StartupFailure | IllegalArgumentException e) {
                // the admin port too busy to answer in time: this sample is skipped
            }
            try {
                if (connection == null) connection = admin.connect();
                try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery(
                        "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid()")) {
                    r.next();
                    pgActive = Math.max(pgActive, r.getInt(1));
                }
            } catch (SQLException e) {
                connection = null;
            }
        }

        private static double max(PrometheusText m, String name) {
            return m.all(name).stream().mapToDouble(PrometheusText.Sample::value).max().orElse(-1);
        }

        @Override
        public void close() {
            stop();
            try {
                if (connection != null) connection.close();
            } catch (SQLException e) {
                // closing a monitoring connection: nothing to keep
            }
        }
    }

    private static Row failed(Runner.Trial t, Cell cell, String why) {
        return new Row(t.invocation(), t.round(), cell.pool(), cell.dbPool(), cell.variant().name(), bound(cell.dbPool()), cell.offered(), 0, 0, 0, 0, 0,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1, -1, -1, -1, -1, Double.NaN, -1, 0, false, why, Warmth.NONE);
    }
}
