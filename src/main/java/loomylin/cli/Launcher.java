package loomylin.cli;

import io.javalin.Javalin;
import io.javalin.util.JavalinBindException;
import io.javalin.util.JavalinException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import loomylin.admin.AdminOptions;
import loomylin.admin.AdminServer;
import loomylin.admin.Watched;
import loomylin.backend.Backend;
import loomylin.jetty.GracefulStop;
import loomylin.jetty.HopClientKind;
import loomylin.jetty.PoolKind;
import loomylin.jetty.ServerOptions;
import loomylin.jetty.Twin;
import loomylin.web.Limits;
import loomylin.web.Params;
import loomylin.web.Routes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts what {@code java -jar loomylin.jar} or a twin's {@code main} asks for: the servers, one per pool,
 * on consecutive ports (or each on an ephemeral port with {@code --port 0}), and the embedded backend after
 * them; then waits for SIGTERM or Ctrl-C and stops everything within {@code --grace-ms} plus one second.
 */
public final class Launcher {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");

    private Launcher() {
    }

    public static final String DEFAULT_POOLS = "qtp:4,qtp:32,loom";

    /** The admin port's default: the port after the backend's slot (7004 with the default ports; free with --port 0). */
    static final String ADMIN_PORT_DEFAULT = "after the backend's port (7004 by default)";

    public static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("twin", "java|kotlin", "java", "which implementation serves the endpoints"),
            new Flags.Flag("pools", "KIND,KIND,...", DEFAULT_POOLS, "one server per pool, on consecutive ports from --port; KIND is " + PoolKind.HELP),
            new Flags.Flag("pool", "PORT=KIND", null, "override one port's pool (repeatable)", "LOOMYLIN_POOL_<PORT>=KIND"),
            new Flags.Flag("port", "PORT", "7000", "port of the first server; 0 puts every server and the backend on a free port"),
            new Flags.Flag("host", "HOST", "0.0.0.0", "address to bind"),
            new Flags.Flag("backend", "URL", null, "use this backend for /hops-* and /mixed?calls=N instead of starting the embedded one"),
            new Flags.Flag("backend-port", "PORT", "first port + number of servers", "port of the embedded backend"),
            new Flags.Flag("delay", "MS", String.valueOf(Limits.DELAY_DEFAULT), "embedded backend's delay per call"),
            new Flags.Flag("accept-queue", "N", "4096", "kernel accept backlog of each server"),
            new Flags.Flag("idle-timeout-ms", "MS", "30000", "close a connection idle this long"),
            new Flags.Flag("header-timeout-ms", "MS", "5000", "a request's headers must be complete this long after its first byte, else 408 and close (servers and admin port); 0 = no deadline"),
            new Flags.Flag("min-body-rate", "BYTES_PER_S", "128", "a request body read slower than this fails (servers and admin port); 0 = no minimum"),
            new Flags.Flag("hop-connect-timeout-ms", "MS", "2000", "backend connect timeout of /hops-*"),
            new Flags.Flag("hop-timeout-ms", "MS", "5000", "backend answer timeout of each hop"),
            new Flags.Flag("hop-client", "url|jdk|jetty", "url", "the blocking client /hops-blocking waits on: HttpURLConnection, JDK HttpClient.send, Jetty's HttpClient"),
            new Flags.Flag("grace-ms", "MS", "5000", "on stop, how long in-flight requests may take to finish; the process ends within this + 1 s"),
            new Flags.Flag("max-in-flight", "N", "0", "requests handled at once per server before the rest queue (Jetty QoSHandler); 0 = no limit"),
            new Flags.Flag("max-in-flight-wait-ms", "MS", "1000", "how long a queued request waits before 503 + Retry-After"),
            new Flags.Flag("data-file-bytes", "BYTES", String.valueOf(Limits.DATA_FILE_BYTES_DEFAULT),
                    "size of the random data file /mixed reads, made at start-up and deleted on exit (" + Limits.DATA_FILE_BYTES_MIN + "-" + Limits.DATA_FILE_BYTES_MAX + ")"),
            new Flags.Flag("data-dir", "DIR", null, "where the data file is written; unset: a new temporary directory"),
            new Flags.Flag("admin-port", "PORT", ADMIN_PORT_DEFAULT, "admin port: /metrics and the live view; 0 = off"),
            new Flags.Flag("race-from", "ADDRESSES", null, "besides loopback, who may start a race from the live view: IP addresses, CIDR ranges, gateway (the default gateway, for a container's published port); comma-separated"),
            new Flags.Flag("admin-hosts", "NAMES", null, "besides localhost and IP addresses, Host names the admin port serves the live figures and races to; comma-separated"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    public static final String USAGE = """
            Usage:
              java -jar loomylin.jar [flags]             three servers (ports 7000-7002) and the backend (7003)
              java -jar loomylin.jar advise [flags]      your request profile measured on three pools (see: advise --help)
              java -jar loomylin.jar backend [flags]     the backend alone (see: backend --help)
              java -jar loomylin.jar bare-jetty [flags]  a bare Jetty Handler (or Javalin route) on one pool (see: bare-jetty --help)
              java -jar loomylin.jar bench [flags]       the benchmark (see: bench --help)
              java -jar loomylin.jar clients [flags]     nio/threads/virtual clients holding N connections (see: clients --help)

            Pools (KIND): qtp:N     Jetty QueuedThreadPool of N platform threads
                          loom      LoomThreadPool: a virtual thread per request, platform threads for Jetty's selector/acceptor
                          jetty-vtp Jetty's VirtualThreadPool, everything virtual (jetty-vtp:N caps concurrent tasks at N)
                          qtp-vt:N  QueuedThreadPool of N platform threads + an unbounded virtual-threads executor
                          qtp-vtp:N:M  QueuedThreadPool of N platform threads + a VirtualThreadPool running at most M tasks at once

            Routes on every server: %s
                                    (parameters and limits: README, Endpoints)

            Flags (each also settable by the environment variable shown):
            """.formatted(Routes.listing());

    /** The twin the flags and environment ask for. */
    public static Twin twin(String[] args) {
        return Flags.parse(args, FLAGS, System.getenv()).value("twin", Twin::parse);
    }

    /** Serves with the given twin; {@code twin} is the twin whose main called, kept unless --twin says otherwise. */
    public static void serve(String[] args, Twin twin, Function<ServerOptions, Javalin> servers) {
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print(USAGE + Flags.describe(FLAGS));
            return;
        }
        Twin wanted = twin(args);
        if (wanted != twin)
            throw new UsageError("this is the " + twin + " twin's main; run java -jar loomylin.jar --twin " + wanted + " for the other");
        ServerOptions base = options(flags, twin);
        UsageError.parsing(raceFrom -> {
            AdminServer.checkAccess(raceFrom, Objects.requireNonNullElse(flags.get("admin-hosts"), ""));
            return raceFrom;
        }, Objects.requireNonNullElse(flags.get("race-from"), ""));
        List<ServerOptions> asked = planned(flags, base);

        int dataBytes = flags.integer("data-file-bytes", Limits.DATA_FILE_BYTES_MIN, Limits.DATA_FILE_BYTES_MAX);
        Path dataDir = dataDir(flags);

        List<AutoCloseable> running = new ArrayList<>();
        List<Integer> bound = new ArrayList<>();
        AdminOptions admin = new AdminOptions();
        try {
            DataFile data = DataFile.create(dataDir, dataBytes);
            running.add(data);
            List<ServerOptions> planned = asked.stream().map(o -> o.withDataFile(data.path()).withDataFileBytes(data.bytes())).toList();
            log("data file {} ({} bytes)", data.path(), data.bytes());
            if (flags.get("backend") == null) {
                int backendPort = flags.get("backend-port").startsWith("first")
                        ? (base.port() == 0 ? 0 : base.port() + planned.size())
                        : flags.integer("backend-port", 0, 65535);
                Backend backend = bind(() -> Backend.start(base.host(), backendPort, flags.integer("delay", 0, Limits.DELAY_MAX), Backend.Fault.NONE));
                running.add(backend);
                admin.backend = backend.jettyServer();
                URI url = URI.create("http://" + reach(base.host()) + ":" + backend.port());
                planned = planned.stream().map(o -> o.withBackend(url)).toList();
                log("backend on port {} ({}, delay {} ms)", backend.port(), Backend.ROUTES, flags.get("delay"));
            }
            for (ServerOptions o : planned) {
                Javalin app = bind(() -> servers.apply(o));
                running.add(() -> GracefulStop.stop(app));
                bound.add(app.port()); // what was bound; with --port 0 not what was asked
                admin.servers.add(new Watched(app.port(), o.pool().toString(), app.jettyServer().server()));
                log("port {} on {}: {} ({} twin), hop client {}{}", app.port(), o.pool(), o.pool().describe(), twin, o.hopClient(),
                        o.maxInFlight() > 0 ? ", max " + o.maxInFlight() + " in flight" : "");
            }
            int adminPort = adminPort(flags, base.port(), asked.size());
            if (adminPort >= 0) {
                admin.host = base.host();
                admin.port = adminPort;
                admin.reachHost = reach(base.host());
                admin.headerTimeoutMs = base.headerTimeoutMs();
                admin.minBodyRate = base.minBodyRate();
                admin.raceFrom = Objects.requireNonNullElse(flags.get("race-from"), "");
                admin.adminHosts = Objects.requireNonNullElse(flags.get("admin-hosts"), "");
                AdminServer server = bind(() -> AdminServer.start(admin));
                running.add(server);
                log("admin port {}: /metrics, and the live view at http://localhost:{}/", server.port(), server.port());
            }
        } catch (RuntimeException e) {
            Shutdown.stopAll(running);
            throw e;
        }
        log("ready; try: curl http://localhost:{}/wait-blocking    stop with Ctrl-C or SIGTERM", bound.get(0));
        Shutdown.onSignal(running, base.graceMs());
    }

    /** How this process reaches a server bound to {@code host}: localhost for every address, IPv6 in brackets. */
    private static String reach(String host) {
        String reach = host.equals("0.0.0.0") || host.equals("::") ? "localhost" : host;
        return reach.contains(":") ? "[" + reach + "]" : reach;
    }

    /** The admin port: -1 when off (--admin-port 0); by default the port after the backend's slot, 0 (free) with --port 0. */
    private static int adminPort(Flags flags, int firstPort, int servers) {
        if (flags.get("admin-port").equals(ADMIN_PORT_DEFAULT)) return firstPort == 0 ? 0 : Math.min(65535, firstPort + servers + 1);
        int port = flags.integer("admin-port", 0, 65535);
        return port == 0 ? -1 : port;
    }

    private static ServerOptions options(Flags flags, Twin twin) {
        String backend = flags.get("backend");
        // every server's pool is planned from --pools, and the data file is made, after the flags are read
        return new ServerOptions(flags.get("host"), flags.integer("port", 0, 65535), ServerOptions.DEFAULTS.pool(),
                backend != null ? backendUrl(backend) : ServerOptions.DEFAULTS.backend(),
                flags.integer("accept-queue", 1, 65535), flags.integer("idle-timeout-ms", 100, 3_600_000),
                flags.integer("header-timeout-ms", 0, 3_600_000), flags.integer("min-body-rate", 0, 1_000_000_000),
                flags.integer("hop-connect-timeout-ms", 1, 600_000), flags.integer("hop-timeout-ms", 1, 600_000),
                flags.value("hop-client", HopClientKind::parse), graceMs(flags), flags.integer("max-in-flight", 0, 10_000_000),
                flags.integer("max-in-flight-wait-ms", 0, 600_000), twin, null, 0);
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

    /** Runs a start-up step, turning "port in use" into one line with the port and exit status 1. */
    public static <T> T bind(Supplier<T> start) {
        try {
            return start.get();
        } catch (JavalinBindException e) {
            throw new StartupFailure(e.getMessage().replace("Port already in use.", "port already in use:").trim());
        } catch (JavalinException e) {
            Throwable root = e;
            while (root.getCause() != null) root = root.getCause();
            throw new StartupFailure("could not start: " + root.getMessage());
        }
    }

    public static void log(String format, Object... args) {
        LOG.info(format, args);
    }
}
