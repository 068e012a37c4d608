package loomylin.lab.engine.run;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.measure.HttpGet;
import loomylin.lab.engine.measure.MetricsScrape;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import loomylin.server.json.Json;
import loomylin.server.web.Params;

/**
 * {@code bench --target URL[,URL...] [--metrics URL]}: servers already running elsewhere (another host, a
 * container), one pool each, and optionally the admin port whose {@code /metrics} gives their process's CPU,
 * memory and threads. {@link #fromFlags} asks every target's {@code /pool} for its pool and twin, and scrapes
 * the metrics once, so a target or metrics URL that does not answer is one line before any load is sent.
 *
 * @param servers      in the order given; their pools are the bench's pools
 * @param metrics      the {@code /metrics} URL, or null: then the server columns stay empty
 * @param metricsPorts the server ports the metrics' process reports, to check they are the targets'
 */
public record RemoteServers(List<Server> servers, URI metrics, List<Integer> metricsPorts) {

    /** One target: its base URL and what its /pool says it runs. */
    public record Server(URI base, PoolKind pool, String twin) {
    }

    /** Null without --target; UsageError for a malformed URL, StartupFailure for one that does not answer. */
    public static RemoteServers fromFlags(Flags flags) {
        String targets = flags.get("target");
        String metrics = flags.get("metrics");
        if (targets == null) {
            if (metrics != null) throw new UsageError("--metrics goes with --target; a bench that starts its own servers reads /proc");
            return null;
        }
        for (String local : List.of("pools", "heap"))
            if (flags.get(local) != null)
                throw new UsageError("--" + local + " does not go with --target: the targets run the pools and heaps they were started with");
        long deadline = System.nanoTime() + flags.integer("target-wait", 0, 3600) * 1_000_000_000L;
        List<Server> servers = new ArrayList<>();
        Map<PoolKind, URI> seen = new LinkedHashMap<>();
        for (String raw : targets.split(",")) {
            if (raw.isBlank()) continue;
            URI base = url("--target", raw.trim(), false);
            Server server = patiently(deadline, () -> probe(base));
            URI other = seen.putIfAbsent(server.pool(), base);
            if (other != null)
                throw new UsageError("--target " + other + " and " + base + " both run " + server.pool() + "; each target must run a different pool");
            servers.add(server);
        }
        if (servers.isEmpty()) throw new UsageError("--target lists nothing");
        if (metrics == null) return new RemoteServers(List.copyOf(servers), null, List.of());
        URI url = url("--metrics", metrics.trim(), true);
        return new RemoteServers(List.copyOf(servers), url, patiently(deadline, () -> MetricsScrape.from(url)).ports());
    }

    /** Asks until it answers or {@code deadline} (System.nanoTime) passes; then the last failure stands. */
    private static <T> T patiently(long deadline, java.util.function.Supplier<T> ask) {
        while (true) {
            try {
                return ask.get();
            } catch (StartupFailure e) {
                if (System.nanoTime() > deadline) throw e;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupFailure("interrupted while waiting for the targets");
            }
        }
    }

    /** The pools in the order given, as --pools would name them. */
    public List<String> pools() {
        return servers.stream().map(s -> s.pool().toString()).toList();
    }

    /** The twins the targets run, e.g. "java", or "java+kotlin" when they differ. */
    public String twins() {
        return String.join("+", servers.stream().map(Server::twin).distinct().toList());
    }

    public Server server(PoolKind pool) {
        return servers.stream().filter(s -> s.pool().equals(pool)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no target runs " + pool)); // the plan only holds the targets' pools
    }

    /** Targets whose port the metrics' process does not report: a port mapping, or metrics of another process. */
    public List<URI> unreported() {
        if (metrics == null) return List.of();
        return servers.stream().map(Server::base).filter(b -> !metricsPorts.contains(b.getPort())).toList();
    }

    private static Server probe(URI base) {
        String body = HttpGet.ok("target", URI.create(base + "/pool"));
        Object json;
        try {
            json = Json.parse(body);
        } catch (RuntimeException e) {
            throw new StartupFailure("target " + base + "/pool is not JSON: is it a Loomylin server port?");
        }
        if (!(json instanceof Map<?, ?> figures) || !(figures.get("kind") instanceof String kind) || !(figures.get("twin") instanceof String twin))
            throw new StartupFailure("target " + base + "/pool names no pool kind and twin: is it a Loomylin server port?");
        try {
            return new Server(base, PoolKind.parse(kind), twin);
        } catch (IllegalArgumentException e) {
            throw new StartupFailure("target " + base + " runs a pool this bench does not know: " + e.getMessage());
        }
    }

    /**
     * http://host:port, nothing after it but an optional "/" (a target), or a path (metrics; none given
     * means /metrics). The port must be explicit: the servers' ports are the point.
     */
    private static URI url(String flag, String raw, boolean metrics) {
        String example = metrics ? "http://host:7004/metrics" : "http://host:7000";
        URI uri;
        try {
            uri = new URI(raw);
        } catch (URISyntaxException e) {
            throw new UsageError(flag + " '" + Params.printable(raw) + "' is not a URL; expected e.g. " + example);
        }
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1 || uri.getQuery() != null
                || uri.getFragment() != null || uri.getUserInfo() != null)
            throw new UsageError(flag + " '" + Params.printable(raw) + "' must look like " + example + " (http, a host and a port)");
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String host = uri.getHost().contains(":") && !uri.getHost().startsWith("[") ? "[" + uri.getHost() + "]" : uri.getHost();
        String base = "http://" + host + ":" + uri.getPort();
        if (metrics) return URI.create(base + (path.isEmpty() || path.equals("/") ? "/metrics" : path));
        if (!path.isEmpty() && !path.equals("/"))
            throw new UsageError(flag + " '" + Params.printable(raw) + "' must be a server's base URL without a path, e.g. " + example);
        return URI.create(base);
    }
}
