package loomylin.server.launch;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.web.Params;

/**
 * The servers' flags ({@link ServeFlags}' fields) read into what each server is asked for: one {@link ServerOptions} per pool, on consecutive
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
    static int adminPort(ServeFlags flags, int firstPort, int servers) {
        if (flags.adminPort == null) return firstPort == 0 ? 0 : Math.min(65535, firstPort + servers + 1);
        return flags.adminPort == 0 ? -1 : flags.adminPort;
    }

    static ServerOptions options(ServeFlags flags) {
        // every server's pool is planned from --pools, and the data file is made, after the flags are read
        return new ServerOptions(flags.common.host, flags.port, ServerOptions.DEFAULTS.pool(),
                flags.backend != null ? flags.backend : ServerOptions.DEFAULTS.backend(),
                flags.acceptQueue, flags.idleTimeoutMs, flags.headerTimeoutMs, flags.minBodyRate,
                flags.hopConnectTimeoutMs, flags.hopTimeoutMs, flags.hopClient, flags.common.graceMs, flags.maxInFlight,
                maxInFlightWaitMs(flags), flags.twin, null, 0, null, flags.headerCache);
    }

    /** --max-in-flight-wait-ms: how long a request waits for the limit's slot; only with a limit. */
    static int maxInFlightWaitMs(ServeFlags flags) {
        if (flags.maxInFlightWaitMs == null) return MAX_IN_FLIGHT_WAIT_MS;
        if (!flags.maxInFlight.isSet())
            throw new UsageError("--max-in-flight-wait-ms is how long a request waits for --max-in-flight's slot: give --max-in-flight N or auto too");
        return flags.maxInFlightWaitMs;
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
    static List<ServerOptions> planned(ServeFlags flags, Map<String, String> env, ServerOptions base) {
        List<PoolKind> kinds = new ArrayList<>(flags.pools.kinds());
        int first = base.port();
        if (first + kinds.size() - 1 > 65535) throw new UsageError("--port " + first + " leaves no room for " + kinds.size() + " servers");
        List<PoolOverride> overrides = new ArrayList<>();
        for (Map.Entry<String, String> e : env.entrySet()) {
            String suffix = e.getKey().startsWith("LOOMYLIN_POOL_") ? e.getKey().substring("LOOMYLIN_POOL_".length()) : "";
            if (suffix.matches("\\d{1,5}")) overrides.add(PoolOverride.parse(suffix + "=" + e.getValue()));
        }
        overrides.addAll(flags.pool);
        for (PoolOverride o : overrides) {
            int index = o.port() - first;
            if (first == 0 || index < 0 || index >= kinds.size())
                throw new UsageError("--pool " + o.port() + "=...: no server on that port; "
                        + (first == 0 ? "with --port 0 every server gets a free port" : "servers are on ports " + first + "-" + (first + kinds.size() - 1)));
            kinds.set(index, o.kind());
        }
        List<ServerOptions> planned = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            planned.add(base.withPort(first == 0 ? 0 : first + i).withPool(kinds.get(i)));
        }
        return planned;
    }
}
