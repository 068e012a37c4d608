package loomylin.server.launch;

import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.MaxInFlight;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.jetty.Twin;
import loomylin.server.web.Params;

/**
 * The servers' flags read into what each server is asked for: one {@link ServerOptions} per pool, on consecutive
 * ports from --port (or each on a free port), with the --pool PORT=KIND and LOOMYLIN_POOL_PORT=KIND overrides,
 * and where the backend and the admin port go.
 */
final class ServerPlan {
    /** How long a request waits for the in-flight limit's slot when --max-in-flight-wait-ms is not given. */
    static final int MAX_IN_FLIGHT_WAIT_MS = 1_000;

    private ServerPlan() {
    }

    /** How this process reaches a server bound to {@code host}: localhost for every address, IPv6 in brackets. */
    static String reach(String host) {
        String reach = host.equals("0.0.0.0") || host.equals("::") ? "localhost" : host;
        return reach.contains(":") ? "[" + reach + "]" : reach;
    }

    /** The admin port: -1 when off (--admin-port 0); by default the port after the backend's slot, 0 (free) with --port 0. */
    static int adminPort(Flags flags, int firstPort, int servers) {
        if (flags.get("admin-port").equals(ServeFlags.ADMIN_PORT_DEFAULT)) return firstPort == 0 ? 0 : Math.min(65535, firstPort + servers + 1);
        int port = flags.integer("admin-port", 0, 65535);
        return port == 0 ? -1 : port;
    }

    static ServerOptions options(Flags flags, Twin twin) {
        String backend = flags.get("backend");
        // every server's pool is planned from --pools, and the data file is made, after the flags are read
        return new ServerOptions(flags.get("host"), flags.integer("port", 0, 65535), ServerOptions.DEFAULTS.pool(),
                backend != null ? backendUrl(backend) : ServerOptions.DEFAULTS.backend(),
                flags.integer("accept-queue", 1, 65535), flags.integer("idle-timeout-ms", 100, 3_600_000),
                flags.integer("header-timeout-ms", 0, 3_600_000), flags.integer("min-body-rate", 0, 1_000_000_000),
                flags.integer("hop-connect-timeout-ms", 1, 600_000), flags.integer("hop-timeout-ms", 1, 600_000),
                flags.value("hop-client", HopClientKind::parse), graceMs(flags), maxInFlight(flags),
                maxInFlightWaitMs(flags), twin, null, 0, null, flags.integer("header-cache", 0, 65_536));
    }

    /** --data-dir, or null for a new temporary directory. */
    static Path dataDir(Flags flags) {
        String dir = flags.get("data-dir");
        if (dir == null) return null;
        try {
            return Path.of(dir);
        } catch (InvalidPathException e) {
            throw new UsageError("--data-dir is not a path: '" + Params.printable(dir) + "'");
        }
    }

    /** --max-in-flight: 0 (none), N, auto or auto:ALGORITHM. */
    static MaxInFlight maxInFlight(Flags flags) {
        return flags.value("max-in-flight", MaxInFlight::parse);
    }

    /** --max-in-flight-wait-ms: how long a request waits for the limit's slot; only with a limit. */
    static int maxInFlightWaitMs(Flags flags) {
        if (flags.get("max-in-flight-wait-ms") != null && !maxInFlight(flags).isSet())
            throw new UsageError("--max-in-flight-wait-ms is how long a request waits for --max-in-flight's slot: give --max-in-flight N or auto too");
        return flags.integer("max-in-flight-wait-ms", MAX_IN_FLIGHT_WAIT_MS, 0, 600_000);
    }

    static int graceMs(Flags flags) {
        return flags.integer("grace-ms", 0, 600_000);
    }

    static URI backendUrl(String text) {
        try {
            URI uri = URI.create(text.replaceAll("/+$", ""));
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) return uri;
        } catch (IllegalArgumentException ignored) {
            // reported below
        }
        throw new UsageError("--backend must be an http URL such as http://backend-host:7003, got '" + Params.printable(text) + "'");
    }

    /**
     * One options object per server: --pools on consecutive ports from --port (all on port 0, each then
     * gets a free port), then the --pool PORT=KIND and LOOMYLIN_POOL_PORT=KIND overrides.
     */
    static List<ServerOptions> planned(Flags flags, ServerOptions base) {
        List<PoolKind> kinds = new ArrayList<>();
        for (String spec : flags.get("pools").split(",")) {
            if (!spec.isBlank()) kinds.add(kind(spec));
        }
        if (kinds.isEmpty()) throw new UsageError("--pools lists no pool");
        int first = base.port();
        if (first + kinds.size() - 1 > 65535) throw new UsageError("--port " + first + " leaves no room for " + kinds.size() + " servers");
        List<String> overrides = new ArrayList<>();
        for (Map.Entry<String, String> e : flags.env().entrySet()) {
            String suffix = e.getKey().startsWith("LOOMYLIN_POOL_") ? e.getKey().substring("LOOMYLIN_POOL_".length()) : "";
            if (suffix.matches("\\d{1,5}")) overrides.add(suffix + "=" + e.getValue());
        }
        overrides.addAll(flags.all("pool"));
        for (String o : overrides) {
            int eq = o.indexOf('=');
            if (eq < 1 || !o.substring(0, eq).matches("\\d{1,5}"))
                throw new UsageError("--pool takes PORT=KIND, e.g. --pool 7002=jetty-vtp; got '" + Params.printable(o) + "'");
            int index = Integer.parseInt(o.substring(0, eq)) - first;
            if (first == 0 || index < 0 || index >= kinds.size())
                throw new UsageError("--pool " + o.substring(0, eq) + "=...: no server on that port; "
                        + (first == 0 ? "with --port 0 every server gets a free port" : "servers are on ports " + first + "-" + (first + kinds.size() - 1)));
            kinds.set(index, kind(o.substring(eq + 1)));
        }
        List<ServerOptions> planned = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            planned.add(base.withPort(first == 0 ? 0 : first + i).withPool(kinds.get(i)));
        }
        return planned;
    }

    private static PoolKind kind(String spec) {
        return UsageError.parsing(PoolKind::parse, spec);
    }

}
