package loomylin.lab.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.lab.experiment.bound.Bound;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.RequestRule;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.CpuSets;
import loomylin.lab.engine.run.DescriptorCheck;
import loomylin.lab.engine.run.RemoteServers;
import loomylin.lab.engine.run.RunSpec;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.Twin;
import loomylin.server.web.Limits;
import loomylin.server.web.Params;

/** The flags of {@code loomylin bench}, each also an environment variable (LOOMYLIN_PRESET, ...). */
public final class BenchFlags {
    private BenchFlags() {
    }

    /** --java: the servers' JDK ({@link loomylin.lab.engine.run.ServerJava}), read by every preset. */
    public static final String JAVA = "java";

    public static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("preset", "smoke|quick|full|latency|scale|hops|bound|admission|db|jdk|crossover|floor", null, "which runs to make; the flags below replace its lists (default: quick, or, when --pools, --endpoints, --concurrency or --rate list the runs, those runs with 20 s windows)"),
            new Flags.Flag("pools", "KIND,KIND,...", null, "pools to compare (default: the preset's); KIND is " + loomylin.server.jetty.PoolKind.HELP),
            new Flags.Flag("loads", "LOOP,LOOP,...", null, "admission only: which loads to offer, of open (1.2x and 2x the sized rate), closed (re-sending every 503 at once) and retry-after (waiting as each 503 asks); default all three"),
            new Flags.Flag("db-pools", "N,N,...", null, "db only: the servers' database pool sizes (default " + loomylin.lab.experiment.bound.DbBench.DB_POOLS + ")"),
            new Flags.Flag("db-client", "jdbc|vertx", null, "db only: read through JDBC on the request's thread (/db-blocking, the default) or Vert.x's non-blocking client (/db-async)"),
            new Flags.Flag("limits", "LIMIT,LIMIT,...", null, "admission only: the limits to compare in front of each pool, of fixed (sized by Little's law on the cores), auto[:gradient2|vegas|aimd] (the adaptive limit) and none; default fixed"),
            new Flags.Flag("max-in-flight", "N", null, "db only: every server admits N requests at once, the rest wait for a slot as long as for a connection, then 503 (default: no limit)"),
            new Flags.Flag("max-in-flight-wait-ms", "MS", null, "db only, with --max-in-flight: how long a request waits for a slot before its 503 (default: as long as for a connection, 1000)"),
            new Flags.Flag("endpoints", "ROUTE[?QUERY],...", null, "endpoints to load, query kept, e.g. wait-blocking?ms=1000 (default: the preset's)"),
            new Flags.Flag("concurrency", "N,N,...", null, "concurrent clients, or open-loop connections, per run (default: the preset's)"),
            new Flags.Flag("rate", "R,R,...", null, "offer each configuration open-loop at these requests per second (oha, latency from the intended send time)"),
            new Flags.Flag("repeat", "K", null, "runs of every configuration, interleaved across pools (default: the preset's)"),
            new Flags.Flag("layers", "LAYER,LAYER,...", null, "floor: the layers to measure (bare-jetty, jetty+connector, bare-javalin, loomylin, loomylin+header-cache; default all)"),
            new Flags.Flag("carriers", "N", null, "the servers' virtual-thread carriers: -Djdk.virtualThreadScheduler.parallelism=N (and maxPoolSize at least N) on every server JVM the bench starts; default the JDK's, one per core. A JDK 21 remedy for pinning, measured in the jdk preset"),
            new Flags.Flag("jfr", null, null, "record each server JVM's measured window with JDK Flight Recorder (DIR/jfr/*.jfr) and summarise GC pauses, pinned virtual threads (every pin, counted, timed and placed), unsubmitted ones and CPU samples by thread group in DIR/jfr.csv and the report; it costs server CPU, most on JDK 21"),
            new Flags.Flag("invocations", "N", null, "run the whole plan N times, each with its own backend JVM; a target whose invocations' medians differ by more than 10 % reads NOISE (default: the preset's)"),
            new Flags.Flag("client", "wrk|hey", null, "closed-loop load generator of every closed run (default: wrk, a window by the clock; hey sends a count and decides no target)"),
            new Flags.Flag("out", "DIR", "bench-results", "where results.csv, report.md, targets.csv and the charts go"),
            new Flags.Flag("requests", "N", null, "requests per measured hey run instead of the preset's rule (rounded down to a multiple of the concurrency)"),
            new Flags.Flag("measure", "S", null, "measured window in seconds, closed and open loop (default: the preset's; under 20 closed or 30 open, the report says the runs decide nothing)"),
            new Flags.Flag("warmup", "DURATION", null, "warm-up before each measured run with the run's own client and concurrency, e.g. 8s or 500ms (default: the preset's)"),
            new Flags.Flag("twin", "java|kotlin", "java", "which implementation the servers run"),
            new Flags.Flag("heap", "SIZE", null, "fixed, pre-touched heap of each server JVM, e.g. 512m (default: the preset's)"),
            new Flags.Flag("backend-delay", "MS", String.valueOf(Limits.DELAY_DEFAULT), "the backend's delay per call, for /hops-*"),
            new Flags.Flag("timeout", "S", "20", "hey's per-request timeout in seconds; a request that takes longer counts as an error"),
            new Flags.Flag("client-limit", "PERCENT", "90", "flag a run client-limited when the load generator kept this share of its CPUs busy, or client and server together this share of the machine"),
            new Flags.Flag("hey", "PATH", null, "the hey binary (default: hey on PATH)"),
            new Flags.Flag("target", "URL,URL,...", null, "measure servers already running there, e.g. http://host-b:7000,http://host-b:7002, instead of starting them; their pools replace --pools"),
            new Flags.Flag("metrics", "URL", null, "with --target: the servers' admin port, e.g. http://host-b:7004/metrics, for their CPU, memory and threads"),
            new Flags.Flag("target-wait", "S", "0", "with --target: how long to wait for the targets and metrics to answer (servers still starting) before giving up"),
            new Flags.Flag("duration", "DURATION", null, "bound, admission and db only: how long each measured run lasts (wrk -d, oha), e.g. 8s (default bound: 20s; admission and db: 30s)"),
            new Flags.Flag("cells", "CELL,CELL,...", null, "crossover only: what a request does, sleepMS, callMS (one backend call), cpuMS or two joined by '+' (default "
                    + String.join(",", loomylin.lab.experiment.crossover.Grid.CELLS.stream().map(loomylin.lab.experiment.crossover.Grid.Cell::label).toList()) + ")"),
            new Flags.Flag("share", "F", null, "crossover only: offer each cell this share of the machine's estimated capacity for it (default " + loomylin.lab.experiment.crossover.Crossover.SHARE + "); --rate R offers R to every cell"),
            new Flags.Flag("rerender", null, null, "write a report again from --out's results under today's rules, measuring nothing: a plain bench's (any preset of smoke, quick, full, latency, scale and hops, or the runs --pools, --endpoints, --concurrency or --rate listed) report.md, targets.csv and charts from its results.csv, with the flags of its provenance.json's command (give no other flag); crossover, floor, jdk, admission and db (with their --preset) crossover.md, floor.md, jdk.md, admission.md, db.md and db.png"),
            new Flags.Flag("wrk", "PATH", null, "the wrk binary (default: wrk on PATH)"),
            new Flags.Flag("hop-client", "url|jdk|jetty", "url", "the servers' blocking client behind /hops-blocking (compare them with --preset hops)"),
            new Flags.Flag("oha", "PATH", null, "the oha binary (default: oha on PATH, else ~/.cargo/bin/oha)"),
            new Flags.Flag(CpuSets.Role.SERVER.flag, "CPUS", null, "pin every server JVM to these CPUs with taskset, e.g. 0 or 0-1 (default: not pinned)"),
            new Flags.Flag(CpuSets.Role.CLIENT.flag, "CPUS", null, "pin the load generator to these CPUs, e.g. 1 (default: not pinned)"),
            new Flags.Flag(CpuSets.Role.BACKEND.flag, "CPUS", null, "pin the backend JVM of /hops-* to these CPUs (default: not pinned)"),
            new Flags.Flag(JAVA, "PATH", null, "the java the measured servers and the backend run on, e.g. a JDK 21's bin/java (default: the bench's own); every preset"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    public static BenchConfig parse(Flags flags) {
        return parse(flags, false);
    }

    /**
     * The bench of {@code flags}; {@code recorded}: flags of a bench that already ran, read back by {@code --rerender}, for
     * which nothing on this machine is looked at (no taskset, no CPU list checked against this machine's, no target asked).
     */
    static BenchConfig parse(Flags flags, boolean recorded) {
        Preset preset = preset(flags);
        if (recorded && flags.get("target") != null) // the targets' pools and twins were read from their /pool as the bench ran
            throw new UsageError("it is a --target bench, whose servers' pools and twins were asked of them as it ran; --rerender does not read them back yet");
        CpuSets cpuSets = cpuSets(flags, flags.get("target") != null, recorded);
        RemoteServers remote = RemoteServers.fromFlags(flags);
        List<String> pools = remote == null ? list(flags, "pools") : remote.pools();
        List<String> endpoints = list(flags, "endpoints");
        List<Integer> concurrency = concurrency(flags);
        RequestRule requests = flags.get("requests") == null ? preset.requests() : RequestRule.fixed(flags.integer("requests", 1, 10_000_000));
        List<Integer> rates = rates(flags);
        Integer repeat = flags.get("repeat") == null ? null : flags.integer("repeat", 1, 20);
        Client client = flags.get("client") == null ? null : Client.closed(flags.get("client"));
        List<RunSpec> runs = Plan.of(preset, new Plan.Overrides(pools, endpoints, concurrency, rates, client, repeat));
        int measureS = flags.get("measure") == null ? preset.measureS() : flags.integer("measure", 1, 600);
        int openMeasureS = flags.get("measure") == null ? preset.openMeasureS() : measureS;
        String warmup = flags.get("warmup") == null ? preset.warmup() : duration(flags.get("warmup"));
        String heap = flags.heap("heap", preset.heap());
        String twin = remote == null ? flags.get("twin").trim() : remote.twins();
        if (remote == null) UsageError.parsing(Twin::parse, twin);
        Map<Client, Path> tools = new java.util.EnumMap<>(Client.class);
        for (Client c : Client.values()) if (flags.get(c.label()) != null) tools.put(c, Path.of(flags.get(c.label())));
        return new BenchConfig(preset.name(), runs, Path.of(flags.get("out")), tools, warmup, preset.warmupConcurrency(), requests,
                measureS, openMeasureS, twin, heap, flags.integer("backend-delay", 0, Limits.DELAY_MAX), flags.integer("timeout", 1, 600),
                flags.integer("client-limit", 1, 100), remote, UsageError.parsing(HopClientKind::parse, flags.get("hop-client").trim()),
                cpuSets, flags.get("invocations") == null ? preset.invocations() : flags.integer("invocations", 1, 5), flags.on("jfr"),
                carriers(flags, remote != null));
    }

    /** {@code --carriers}: 0 (the JDK's default) to 10,000; refused with {@code --target}, whose servers the bench does not start. */
    static int carriers(Flags flags, boolean remote) {
        int carriers = flags.integer("carriers", 0, 0, 10_000);
        if (carriers > 0 && remote) throw new UsageError("--carriers sets the JVM options of servers the bench starts; with --target, start yours with -Djdk.virtualThreadScheduler.parallelism");
        return carriers;
    }

    /** Refuses, as a usage error, any flag given on the command line that the preset's own runner does not read ({@code honoured}). */
    public static void only(Flags flags, String preset, java.util.Set<String> honoured) {
        for (Flags.Flag f : FLAGS)
            if (!honoured.contains(f.name()) && !f.name().equals(JAVA) && !flags.all(f.name()).isEmpty())
                throw new UsageError("--" + f.name() + " does not apply to --preset " + preset + "; it reads " + String.join(", ",
                        honoured.stream().filter(n -> !n.equals("preset") && !n.equals("help")).sorted().map(n -> "--" + n).toList()));
    }

    /** The CPU sets of the flags; with --target the bench starts no server or backend, so only the client can be pinned. */
    private static CpuSets cpuSets(Flags flags, boolean remote, boolean recorded) {
        Map<CpuSets.Role, String> raw = new java.util.EnumMap<>(CpuSets.Role.class);
        for (CpuSets.Role role : CpuSets.Role.values()) {
            String value = flags.get(role.flag);
            if (value == null) continue;
            if (remote && role != CpuSets.Role.CLIENT)
                throw new UsageError("--" + role.flag + " pins a process the bench starts; with --target it starts none but the load generator");
            raw.put(role, value);
        }
        return recorded ? CpuSets.recorded(raw) : CpuSets.of(raw, Path.of("/proc/self/status"), System.getenv("PATH"));
    }

    /** The --preset named, or without one quick, unless the flags list the runs: then {@link Preset#CUSTOM}. */
    private static Preset preset(Flags flags) {
        if (flags.get("preset") != null) return Preset.named(flags.get("preset"));
        boolean listed = java.util.stream.Stream.of("pools", "endpoints", "concurrency", "rate", "target").anyMatch(f -> flags.get(f) != null);
        return listed ? Preset.CUSTOM : Preset.QUICK;
    }

    /** A comma-separated list, or null when neither the flag nor its variable is set. */
    private static List<String> list(Flags flags, String name) {
        return flags.commaList(name, null);
    }

    private static List<Integer> concurrency(Flags flags) {
        List<String> raw = list(flags, "concurrency");
        if (raw == null) return null;
        List<Integer> out = new ArrayList<>();
        for (String c : raw) {
            // hey needs one file descriptor per client; 10000 stays well inside a 20000 limit with room for hey itself
            // hey or wrk and the server need a file descriptor per client: DescriptorCheck checks the levels against the limit
            if (!c.matches("\\d{1,5}") || Integer.parseInt(c) < 1 || Integer.parseInt(c) > 50_000)
                throw new UsageError("--concurrency takes whole numbers from 1 to 50000, got '" + Params.printable(c) + "'");
            out.add(Integer.parseInt(c));
        }
        return out;
    }

    private static List<Integer> rates(Flags flags) {
        List<String> raw = list(flags, "rate");
        if (raw == null) return null;
        List<Integer> out = new ArrayList<>();
        for (String r : raw) {
            if (!r.matches("\\d{1,6}") || Integer.parseInt(r) < 1 || Integer.parseInt(r) > 200_000)
                throw new UsageError("--rate takes requests per second from 1 to 200000, got '" + Params.printable(r) + "'");
            out.add(Integer.parseInt(r));
        }
        return out;
    }

    /** hey -z takes Go durations; we accept the two forms a warm-up needs. */
    private static String duration(String raw) {
        String d = raw.trim();
        if (!d.matches("\\d{1,6}(ms|s)") || d.matches("0+(ms|s)"))
            throw new UsageError("--warmup must look like 2s or 500ms, got '" + Params.printable(raw) + "'");
        return d;
    }

    public static String help() {
        return """
                Usage: java -jar loomylin.jar bench [flags]

                Starts a backend JVM when /hops-* is loaded, then for each run a fresh server JVM on one pool,
                warms it up with a hey burst, and measures it closed-loop (hey or wrk) or open-loop at a constant
                rate (oha) while sampling the server's /proc figures. Every configuration runs --repeat times,
                interleaved across pools. Writes DIR/results.csv (a row per run, written as each run ends),
                DIR/report.md (medians with min-max), DIR/targets.csv, DIR/<endpoint>.png (one chart grid per
                endpoint; DIR/<endpoint>-open.png for open-loop runs), and the JVMs' output in DIR/servers.log
                and DIR/backend.log. Linux only (reads /proc).

                With --target the bench starts nothing: it loads servers already running (each target one pool,
                read from its /pool), and with --metrics takes their CPU, memory and threads from the admin
                port's /metrics instead of /proc; --twin, --heap and --backend-delay are the targets' own then.

                Presets:
                """ + presets() + """

                Experiments with a command of their own: java -jar loomylin.jar bench NAME [flags] (NAME --help: its flags)
                """ + commands() + """

                Needs hey (https://github.com/rakyll/hey): apt install hey | go install github.com/rakyll/hey@latest | brew install hey
                wrk runs need wrk: apt install wrk | brew install wrk
                open-loop runs (--rate, --preset latency) need oha: cargo install oha --version 1.16.0 --locked

                Flags (each also settable by the environment variable shown):
                """ + Flags.describe(FLAGS);
    }

    private static String presets() {
        StringBuilder out = new StringBuilder();
        for (String name : Preset.NAMES) {
            Preset p = Preset.named(name);
            out.append(String.format("  %-7s %s; about %d min here%n", name, p.summary(), Estimate.minutes(p)));
        }
        out.append(String.format("  %-7s %s%n", Bound.NAME, "each pool shape past its bound, with and without --max-in-flight: blocking waits, CPU overload,"
                + " large bodies on " + Bound.BODIES_POOL + "; 26 runs of --duration (20s) plus about 10 s each; --concurrency B,C,D sets the three loads' clients"
                + " (1000,2000,500); writes bound.csv, bound.md, bound-*.png, provenance.json"));
        out.append(String.format("  %-7s %s%n", loomylin.lab.experiment.bound.AdmissionBench.NAME, "what --max-in-flight delivers under bound's CPU overload: each pool"
                + " behind the limit, open loop at " + loomylin.lab.experiment.bound.AdmissionBench.OPEN_RATES + " x the sized rate and closed loop at "
                + loomylin.lab.experiment.bound.AdmissionBench.CLOSED_CLIENTS + " clients (oha; 2xx latency apart), --repeat (" + loomylin.lab.experiment.bound.AdmissionBench.REPEAT
                + ") interleaved; " + loomylin.lab.experiment.bound.AdmissionBench.POOLS.size() * 3 * loomylin.lab.experiment.bound.AdmissionBench.REPEAT + " runs of --duration ("
                + loomylin.lab.experiment.bound.AdmissionBench.WINDOW.toSeconds() + "s) plus about 15 s each; writes admission.csv, admission.md, provenance.json"));
        out.append(String.format("  %-7s %s%n", loomylin.lab.experiment.bound.DbBench.NAME, "the connection pool as the bound: /db-blocking?ms="
                + loomylin.lab.experiment.bound.DbBench.QUERY_MS + " on a PostgreSQL of the bench's own, each pool (" + String.join(", ", loomylin.lab.experiment.bound.DbBench.POOLS)
                + ") with --db-pools " + loomylin.lab.experiment.bound.DbBench.DB_POOLS + " connections, open loop at " + loomylin.lab.experiment.bound.DbBench.OPEN_SHARE
                + " of Little's bound and closed loop at " + loomylin.lab.experiment.bound.DbBench.CLOSED_CLIENTS + " clients, --repeat ("
                + loomylin.lab.experiment.bound.DbBench.REPEAT + ") interleaved, each after wrk warm-up slices of --warmup (" + loomylin.lab.experiment.bound.DbBench.SLICE.toSeconds() + "s) until the JIT is quiet;"
                + " --db-client vertx reads /db-async instead, --max-in-flight N puts admission beside the pool's timeout; --invocations N runs it N"
                + " times, each on a PostgreSQL of its own, and rows add up over invocations in one --out; writes db.csv, db.md, provenance.json"));
        out.append(String.format("  %-7s %s%n", JdkBench.NAME, "the same servers on the bench's JDK and --java's (a JDK 21: scripts/jdk21.sh): "
                + String.join(", ", JdkBench.ENDPOINTS) + " on " + String.join(", ", JdkBench.POOLS) + " at c=" + JdkBench.CONCURRENCY + ", --repeat ("
                + JdkBench.REPEAT + "), --jfr; a plan per JDK in DIR/jdkNN-VERSION, jdk.md side by side"));
        out.append(String.format("  %-7s %s%n", loomylin.lab.experiment.crossover.Crossover.NAME, "where virtual threads pay off, by cost at a fixed load: each cell (--cells)"
                + " offered one oha open-loop rate (--share of its estimated capacity, or --rate); a sweep of platform pools picks the one a user would size;"
                + " then --repeat (2) rounds of --pools (loom), qtp:200 and the pick, --measure (20) s windows after settling warm-up slices; A/A pairs"
                + " set the noise line; rows add up across invocations in one --out; writes crossover.csv/.md, provenance(-N).json"));
        out.append(String.format("  %-7s %s%n", loomylin.lab.experiment.crossover.Floor.NAME, "the floor by layer: /wait-blocking?ms=0 on a bare Jetty Handler, on it behind Loomylin's connector, on a bare Javalin route,"
                + " on a Loomylin server and on one with Jetty's header cache (--layers), on each pool (--pools), oha open loop at --rate (4000) req/s,"
                + " --measure (30) s windows after settling warm-up slices, --repeat (2) rounds; --jfr splits the CPU samples by owner; rows add up"
                + " across invocations in one --out; writes floor.csv/.md, provenance(-N).json"));
        return out.toString();
    }

    private static String commands() {
        StringBuilder out = new StringBuilder();
        Bench.COMMANDS.forEach((name, command) -> out.append(String.format("  %-11s %s%n", name, command.get().about())));
        return out.toString();
    }

    public static BenchConfig parse(String[] args, Map<String, String> env) {
        return parse(Flags.parse(args, FLAGS, env));
    }
}
