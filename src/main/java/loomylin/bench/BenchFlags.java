package loomylin.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.cli.Flags;
import loomylin.cli.UsageError;
import loomylin.web.Limits;
import loomylin.web.Params;

/** The flags of {@code loomylin bench}, each also an environment variable (LOOMYLIN_PRESET, ...). */
final class BenchFlags {
    private BenchFlags() {
    }

    static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("preset", "smoke|quick|full|connections", "quick", "which runs to make; the flags below replace its lists"),
            new Flags.Flag("pools", "KIND,KIND,...", null, "pools to compare (default: the preset's); KIND is " + loomylin.jetty.PoolKind.HELP),
            new Flags.Flag("endpoints", "ROUTE[?QUERY],...", null, "endpoints to load, query kept, e.g. wait-blocking?ms=1000 (default: the preset's)"),
            new Flags.Flag("concurrency", "N,N,...", null, "concurrent clients (hey -c) per run (default: the preset's)"),
            new Flags.Flag("out", "DIR", "bench-results", "where results.csv, report.md, targets.csv and the charts go"),
            new Flags.Flag("requests", "N", null, "requests per measured run instead of the preset's rule (rounded down to a multiple of the concurrency)"),
            new Flags.Flag("warmup", "DURATION", null, "hey burst before each measured run, e.g. 2s or 500ms (default: the preset's)"),
            new Flags.Flag("twin", "java|kotlin", "java", "which implementation the servers run"),
            new Flags.Flag("heap", "SIZE", null, "fixed, pre-touched heap of each server JVM, e.g. 512m (default: the preset's)"),
            new Flags.Flag("backend-delay", "MS", String.valueOf(Limits.DELAY_DEFAULT), "the backend's delay per call, for /hops-*"),
            new Flags.Flag("timeout", "S", "20", "hey's per-request timeout in seconds; a request that takes longer counts as an error"),
            new Flags.Flag("client-limit", "PERCENT", "45", "flag a run client-limited when hey used more than this share of all cores"),
            new Flags.Flag("hey", "PATH", null, "the hey binary (default: hey on PATH)"),
            new Flags.Flag("hop-client", "jdk|url|jetty", "jdk", "the servers' blocking client behind /hops-blocking (compare them with --preset hops)"),
            new Flags.Flag("duration", "S", "30", "--preset connections: seconds each client run is measured"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    static BenchConfig parse(Flags flags) {
        Preset preset = Preset.named(flags.get("preset"));
        List<String> pools = list(flags, "pools");
        List<String> endpoints = list(flags, "endpoints");
        List<Integer> concurrency = concurrency(flags);
        RequestRule requests = flags.get("requests") == null ? preset.requests() : RequestRule.fixed(flags.integer("requests", 1, 10_000_000));
        List<RunSpec> runs = Plan.of(preset, pools, endpoints, concurrency, requests);
        String warmup = flags.get("warmup") == null ? preset.warmup() : duration(flags.get("warmup"));
        String heap = flags.get("heap") == null ? preset.heap() : heap(flags.get("heap"));
        String twin = flags.get("twin").trim();
        if (!twin.equals("java") && !twin.equals("kotlin"))
            throw new UsageError("--twin must be java or kotlin, got '" + Params.printable(twin) + "'");
        Path hey = flags.get("hey") == null ? null : Path.of(flags.get("hey"));
        return new BenchConfig(preset, runs, Path.of(flags.get("out")), hey, warmup, preset.warmupConcurrency(), requests,
                twin, heap, flags.integer("backend-delay", 0, Limits.DELAY_MAX), flags.integer("timeout", 1, 600),
                flags.integer("client-limit", 1, 100), hopClient(flags.get("hop-client")));
    }

    private static String hopClient(String raw) {
        String client = raw.trim();
        if (!loomylin.jetty.ServerOptions.HOP_CLIENTS.contains(client))
            throw new UsageError("--hop-client must be one of " + String.join(", ", loomylin.jetty.ServerOptions.HOP_CLIENTS) + ", got '" + Params.printable(raw) + "'");
        return client;
    }

    /** A comma-separated list, or null when neither the flag nor its variable is set. */
    private static List<String> list(Flags flags, String name) {
        String raw = flags.get(name);
        if (raw == null) return null;
        List<String> items = new ArrayList<>();
        for (String item : raw.split(",")) if (!item.isBlank()) items.add(item.trim());
        if (items.isEmpty()) throw new UsageError("--" + name + " lists nothing");
        return items;
    }

    private static List<Integer> concurrency(Flags flags) {
        List<String> raw = list(flags, "concurrency");
        if (raw == null) return null;
        List<Integer> out = new ArrayList<>();
        for (String c : raw) {
            // hey and the server need a file descriptor per client: OpenFileLimit checks the levels against the limit
            if (!c.matches("\\d{1,5}") || Integer.parseInt(c) < 1 || Integer.parseInt(c) > 50_000)
                throw new UsageError("--concurrency takes whole numbers from 1 to 50000, got '" + Params.printable(c) + "'");
            out.add(Integer.parseInt(c));
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

    private static String heap(String raw) {
        String h = raw.trim().toLowerCase(java.util.Locale.ROOT);
        if (!h.matches("\\d{1,6}[mg]"))
            throw new UsageError("--heap must look like 512m or 2g, got '" + Params.printable(raw) + "'");
        return h;
    }

    static String help() {
        return """
                Usage: java -jar loomylin.jar bench [flags]

                Starts a backend JVM, then for each run a fresh server JVM on one pool, warms it up with a short
                hey burst, and measures one hey run against it while sampling the server's /proc figures.
                Writes DIR/results.csv (a row per run, written as each run ends), DIR/report.md, DIR/targets.csv,
                DIR/<endpoint>.png (one 3x2 chart grid per endpoint), and the JVMs' output in DIR/servers.log and
                DIR/backend.log. Linux only (reads /proc).

                Presets:
                """ + presets() + """

                Needs hey (https://github.com/rakyll/hey): apt install hey | go install github.com/rakyll/hey@latest | brew install hey

                Flags (each also settable by the environment variable shown):
                """ + Flags.describe(FLAGS);
    }

    private static String presets() {
        StringBuilder out = new StringBuilder();
        for (String name : Preset.NAMES) {
            Preset p = Preset.named(name);
            out.append(String.format("  %-6s %s%n", name, p.summary()));
        }
        out.append(String.format("  %-6s %s%n", "connections", "the echo seed: nio, threads and virtual clients x 100-15000 connections and the most the"
                + "\n         open-file limit allows, against the backend's /echo (1 s); --concurrency lists connections; DIR/connections.*"));
        return out.toString();
    }

    static BenchConfig parse(String[] args, Map<String, String> env) {
        return parse(Flags.parse(args, FLAGS, env));
    }
}
