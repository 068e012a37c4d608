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
import loomylin.bench.load.Client;
import loomylin.bench.load.ClientBinary;
import loomylin.bench.load.WrkRun;
import loomylin.bench.output.Progress;
import loomylin.bench.output.Provenance;
import loomylin.bench.output.Spread;
import loomylin.bench.run.Endpoint;
import loomylin.bench.run.FreePort;
import loomylin.bench.run.RunResult;
import loomylin.bench.run.RunSpec;
import loomylin.bench.run.ServerProcess;
import loomylin.bench.run.TimedRun;
import loomylin.cli.Flags;
import loomylin.cli.StartupFailure;
import loomylin.cli.UsageError;
import loomylin.jetty.HopClientKind;
import loomylin.jetty.PoolKind;
import loomylin.jetty.Twin;

/**
 * {@code bench --preset floor}: the floor under the crossover's CPU axis, in three layers. The same zero-work
 * request on a bare Jetty Handler ({@code loomylin bare-jetty}: no Javalin, none of Loomylin's handlers), on a
 * bare Javalin route ({@code bare-jetty --framework javalin}: Javalin's defaults, none of Loomylin's handlers)
 * and on Loomylin's cheapest endpoint ({@link #LOOMYLIN_ENDPOINT}), on each pool: wrk with one thread and
 * {@link #CONNECTIONS} connections, a window of {@code --measure} seconds after a {@code --warmup} at the same
 * load, a fresh server JVM per run, rounds interleaved (the three side by side on every pool, then the next
 * round). Writes floor.csv, floor.md (per pool each layer's CPU per request and what Javalin and Loomylin's
 * handlers add, with the range over rounds) and provenance.json.
 */
public final class Floor {
    public static final String NAME = "floor";
    public static final List<String> POOLS = List.of("qtp:32", "loom", "jetty-vtp", Shapes.PREFERRED);
    public static final String LOOMYLIN_ENDPOINT = "wait-blocking?ms=0";
    /** What the bare servers' rows name as their endpoint: any path gets their 200 "ok". */
    public static final Endpoint BARE_JETTY = new Endpoint("bare-jetty", "");
    public static final Endpoint BARE_JAVALIN = new Endpoint("bare-javalin", "");
    public static final int CONNECTIONS = 50;
    public static final int WRK_THREADS = 1;
    public static final int MEASURE_S = 10;
    public static final Duration WARMUP = Duration.ofSeconds(5);
    public static final int REPEAT = 2;
    public static final String HEAP = "512m";
    /** The bench flags this preset reads; the bench refuses any other given with it. */
    public static final java.util.Set<String> FLAGS = java.util.Set.of("preset", "pools", "concurrency", "measure", "warmup", "repeat", "twin", "heap",
            "timeout", "client-limit", "wrk", "out", "help");
    public static final String CSV = "floor.csv";
    public static final String REPORT = "floor.md";

    /** Which server a run measured. */
    public enum Server {
        BARE("bare-jetty"), JAVALIN("bare-javalin"), LOOMYLIN("loomylin");

        public final String label;

        Server(String label) {
            this.label = label;
        }
    }

    /** One finished or failed run. */
    public record Row(Server server, PoolKind pool, int round, RunResult result, String failure) {
    }

    private Floor() {
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        loomylin.cli.Flags.requireProc("the bench");
        List<PoolKind> pools = new ArrayList<>();
        for (String p : flags.get("pools") == null ? POOLS : List.of(flags.get("pools").split(","))) {
            if (p.isBlank()) continue;
            PoolKind kind = UsageError.parsing(PoolKind::parse, p.trim());
            if (!pools.contains(kind)) pools.add(kind);
        }
        if (pools.isEmpty()) throw new UsageError("--pools lists nothing");
        int connections = flags.get("concurrency") == null ? CONNECTIONS : flags.integer("concurrency", 1, 10_000);
        int measureS = flags.get("measure") == null ? MEASURE_S : flags.integer("measure", 1, 600);
        Duration warmup = flags.get("warmup") == null ? WARMUP : flags.duration("warmup", Duration.ofSeconds(1), Duration.ofMinutes(5));
        int rounds = flags.get("repeat") == null ? REPEAT : flags.integer("repeat", 1, 20);
        String twin = flags.value("twin", Twin::parse).label();
        String heap = flags.heap("heap", HEAP);
        int timeoutS = flags.integer("timeout", 1, 600);
        int clientLimit = flags.integer("client-limit", 1, 100);
        Path wrk = ClientBinary.locate(Client.WRK, flags.get("wrk") == null ? null : Path.of(flags.get("wrk")));
        Endpoint loomylin = Endpoint.parse(LOOMYLIN_ENDPOINT);
        int cores = Runtime.getRuntime().availableProcessors();
        Path dir = Path.of(flags.get("out")).toAbsolutePath();
        int total = rounds * pools.size() * Server.values().length;
        try {
            Files.createDirectories(dir);
            Path log = dir.resolve("servers.log");
            Files.writeString(log, "");
            out.printf(Locale.ROOT, "bench: preset %s, %d runs (%d pools x bare jetty/bare javalin/loomylin x %d rounds) of %d s after %d s of warm-up, wrk -t%d -c%d, about %d minutes -> %s%n",
                    NAME, total, pools.size(), rounds, measureS, warmup.toSeconds(), WRK_THREADS, connections,
                    (total * (measureS + warmup.toSeconds() + Crossover.OVERHEAD_S) + 59) / 60, dir);
            Provenance.collect(commandLine, dir, Map.of("wrk", ClientBinary.version(Client.WRK, wrk)),
                    Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS)).write(dir);
            Path csv = dir.resolve(CSV);
            List<String> header = new ArrayList<>(List.of("server", "round", "failure"));
            header.addAll(RunResult.COLUMNS);
            Files.writeString(csv, String.join(",", header) + "\n");
            List<Row> rows = new ArrayList<>();
            Progress progress = new Progress(total, out);
            for (int round = 1; round <= rounds; round++) {
                for (PoolKind pool : pools) {
                    for (Server server : Server.values()) {
                        Files.writeString(log, "=== " + server.label + " " + pool + " round " + round + "\n", StandardOpenOption.APPEND);
                        Endpoint endpoint = switch (server) {
                            case BARE -> BARE_JETTY;
                            case JAVALIN -> BARE_JAVALIN;
                            case LOOMYLIN -> loomylin;
                        };
                        RunSpec spec = new RunSpec(pool, endpoint, connections, 0, Client.WRK, round);
                        Row row = one(server, spec, twin, heap, wrk, measureS, (int) Math.max(1, warmup.toSeconds()), timeoutS, clientLimit, cores, log);
                        rows.add(row);
                        Files.writeString(csv, csvLine(row), StandardOpenOption.APPEND);
                        if (row.result() != null) progress.done(rows.size(), row.result());
                        else out.printf("[%d/%d] %s %s round %d FAILED: %s%n", rows.size(), total, server.label, pool, round, row.failure());
                    }
                }
            }
            Files.writeString(dir.resolve(REPORT), report(commandLine, pools, rows, connections, measureS, warmup));
            out.printf("bench: done; %s%n", dir.resolve(REPORT));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    private static Row one(Server which, RunSpec spec, String twin, String heap, Path wrk, int measureS, int warmupS, int timeoutS,
                           int clientLimit, int cores, Path log) throws IOException {
        ServerProcess server = null;
        try {
            for (int attempt = 1; ; attempt++) {
                server = which != Server.LOOMYLIN ? ServerProcess.bare(spec.pool().toString(), which == Server.JAVALIN, heap, FreePort.pick(), log)
                        : ServerProcess.server(spec.pool().toString(), twin, heap, FreePort.pick(), URI.create("http://" + ServerProcess.HOST + ":1"),
                        HopClientKind.URL, log);
                try {
                    if (which != Server.LOOMYLIN) server.awaitReady("/");
                    else server.awaitPool(spec.pool().toString(), twin);
                    break;
                } catch (StartupFailure e) {
                    server.close();
                    if (!server.portTaken() || attempt == 3) throw e;
                }
            }
            RunResult result = TimedRun.run(server, spec, which == Server.LOOMYLIN ? twin : "-", cores, clientLimit,
                    (url, sampler) -> WrkRun.measure(wrk, url, warmupS, spec.concurrency(), timeoutS, WRK_THREADS, sampler),
                    (url, sampler) -> WrkRun.measure(wrk, url, measureS, spec.concurrency(), timeoutS, WRK_THREADS, sampler));
            return new Row(which, spec.pool(), spec.repeat(), result, null);
        } catch (StartupFailure | IllegalArgumentException e) {
            return new Row(which, spec.pool(), spec.repeat(), null, String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("bench: interrupted");
        } finally {
            if (server != null) server.close();
        }
    }

    private static String csvLine(Row row) {
        List<String> fields = new ArrayList<>(List.of(row.server().label, Integer.toString(row.round()),
                row.failure() == null ? "" : "\"" + row.failure().replace("\"", "'") + "\""));
        if (row.result() != null) fields.addAll(row.result().csvFields());
        else for (int i = 0; i < RunResult.COLUMNS.size(); i++) fields.add(i == 0 ? row.pool().toString() : "");
        return String.join(",", fields) + "\n";
    }

    /** Per pool: each layer's CPU per request and rate, and what Javalin and Loomylin's handlers add per request, per round. */
    static String report(String commandLine, List<PoolKind> pools, List<Row> rows, int connections, int measureS, Duration warmup) {
        StringBuilder md = new StringBuilder("# The floor: bare Jetty, bare Javalin and Loomylin\n\n");
        md.append("Command: `").append(commandLine).append("` (provenance in provenance.json).\n\n");
        md.append(String.format(Locale.ROOT, "The same zero-work request on a bare Jetty Handler (`bare-jetty`: 200 \"ok\", no Javalin, no Loomylin handler),"
                + " on a bare Javalin route (`bare-jetty --framework javalin`: Javalin's defaults, no Loomylin handler) and on Loomylin's `/%s`, on each pool:"
                + " wrk -t%d -c%d, %d s windows after %d s of warm-up at the same load, a fresh server JVM per run. CPU per request is the server JVM's"
                + " CPU time over the window divided by its answers; Javalin's part is bare Javalin's minus bare Jetty's, Loomylin's handlers' part"
                + " Loomylin's minus bare Javalin's (each per round); the median of the rounds with their range.%n%n",
                LOOMYLIN_ENDPOINT, WRK_THREADS, connections, measureS, warmup.toSeconds()));
        md.append("| pool | Jetty CPU ms/req | Javalin CPU ms/req | Loomylin CPU ms/req | Javalin adds ms/req | Loomylin's handlers add ms/req"
                + " | Loomylin's handlers' share of a Loomylin request | Jetty req/s | Javalin req/s | Loomylin req/s | note |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (PoolKind pool : pools) {
            java.util.Map<Server, List<Double>> cpu = new java.util.EnumMap<>(Server.class);
            java.util.Map<Server, List<Double>> rps = new java.util.EnumMap<>(Server.class);
            for (Server s : Server.values()) {
                cpu.put(s, new ArrayList<>());
                rps.put(s, new ArrayList<>());
            }
            List<Double> javalinAdds = new ArrayList<>();
            List<Double> loomylinAdds = new ArrayList<>();
            List<Double> loomylinShare = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (int round : rows.stream().map(Row::round).distinct().sorted().toList()) {
                java.util.Map<Server, RunResult> r = new java.util.EnumMap<>(Server.class);
                for (Server s : Server.values()) {
                    RunResult x = find(rows, pool, round, s);
                    if (x == null) continue;
                    r.put(s, x);
                    cpu.get(s).add(x.cpuMsPerRequest());
                    rps.get(s).add(x.rps());
                    if (x.errors() > 0) notes.add(s.label + " " + x.errors() + " errors");
                    if (x.clientLimited()) notes.add(s.label + " client-limited");
                }
                if (r.containsKey(Server.BARE) && r.containsKey(Server.JAVALIN))
                    javalinAdds.add(r.get(Server.JAVALIN).cpuMsPerRequest() - r.get(Server.BARE).cpuMsPerRequest());
                if (r.containsKey(Server.JAVALIN) && r.containsKey(Server.LOOMYLIN)) {
                    double adds = r.get(Server.LOOMYLIN).cpuMsPerRequest() - r.get(Server.JAVALIN).cpuMsPerRequest();
                    loomylinAdds.add(adds);
                    loomylinShare.add(100 * adds / r.get(Server.LOOMYLIN).cpuMsPerRequest());
                }
            }
            long failed = rows.stream().filter(r -> r.pool().equals(pool) && r.result() == null).count();
            if (failed > 0) notes.add(failed + " failed run(s), see floor.csv");
            md.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", pool,
                    Spread.of(cpu.get(Server.BARE)).text(4), Spread.of(cpu.get(Server.JAVALIN)).text(4), Spread.of(cpu.get(Server.LOOMYLIN)).text(4),
                    Spread.of(javalinAdds).text(4), Spread.of(loomylinAdds).text(4), percent(Spread.of(loomylinShare)),
                    Spread.of(rps.get(Server.BARE)).text(0), Spread.of(rps.get(Server.JAVALIN)).text(0), Spread.of(rps.get(Server.LOOMYLIN)).text(0),
                    String.join(", ", notes.stream().distinct().toList())));
        }
        return md.toString();
    }

    private static String percent(Spread s) {
        return s.count() == 0 ? "" : s.text(0) + " %";
    }

    private static RunResult find(List<Row> rows, PoolKind pool, int round, Server server) {
        return rows.stream().filter(r -> r.pool().equals(pool) && r.round() == round && r.server() == server && r.result() != null)
                .map(Row::result).findFirst().orElse(null);
    }
}
