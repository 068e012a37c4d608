package loomylin.server.launch;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.Whole;
import loomylin.server.db.DbOptions;
import loomylin.server.db.Items;
import loomylin.server.jetty.HopClientKind;
import loomylin.server.jetty.MaxInFlight;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.Twin;
import loomylin.server.web.Limits;
import loomylin.server.web.Routes;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The servers' command line: each flag declared on the field it fills, typed (its variable {@code LOOMYLIN_<NAME>}
 * read by {@link CommandLines}, the flag winning), and the usage text. {@link ServeOptions} reads these fields
 * once into what the servers are asked for; a field is null where the flag has no default and was not given.
 */
final class ServeFlags {
    static final String DEFAULT_POOLS = "qtp:4,qtp:32,loom";

    @Option(names = "--twin", paramLabel = "java|kotlin", defaultValue = "java", converter = Converters.TwinValue.class,
            description = "which implementation serves the endpoints")
    Twin twin;

    @Option(names = "--pools", paramLabel = "KIND,KIND,...", defaultValue = DEFAULT_POOLS, converter = Converters.Pools.class,
            description = "one server per pool, on consecutive ports from --port; KIND is " + PoolKind.HELP)
    PoolList pools;

    /** Repeatable, so it has no one variable: LOOMYLIN_POOL_<PORT> is read by {@link ServerPlan#planned}. */
    @Option(names = "--pool", paramLabel = "PORT=KIND", converter = Converters.PoolAt.class,
            description = "override one port's pool (repeatable; in the environment LOOMYLIN_POOL_<PORT>=KIND)")
    List<PoolOverride> pool = new ArrayList<>();

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "7000",
            description = "port of the first server; 0 puts every server and the backend on a free port")
    @Whole(min = 0, max = 65535)
    int port;

    @Mixin
    CommonFlags common = new CommonFlags();

    @Option(names = "--backend", paramLabel = "URL", converter = Converters.BackendUrl.class,
            description = "use this backend for /hops-* and /mixed?calls=N instead of starting the embedded one")
    URI backend;

    @Option(names = "--backend-port", paramLabel = "PORT",
            description = "port of the embedded backend (default: first port + number of servers)")
    @Whole(min = 0, max = 65535)
    Integer backendPort;

    @Option(names = "--accept-queue", paramLabel = "N", defaultValue = "4096", description = "kernel accept backlog of each server")
    @Whole(min = 1, max = 65535)
    int acceptQueue;

    @Option(names = "--idle-timeout-ms", paramLabel = "MS", defaultValue = "30000", description = "close a connection idle this long")
    @Whole(min = 100, max = 3_600_000)
    int idleTimeoutMs;

    @Option(names = "--header-timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "a request's headers must be complete this long after its first byte, else 408 and close (servers and admin port); 0 = no deadline")
    @Whole(min = 0, max = 3_600_000)
    int headerTimeoutMs;

    @Option(names = "--header-cache", paramLabel = "N", defaultValue = "0",
            description = "entries in each keep-alive connection's header cache (Jetty's default is 1024, about 64 KB a connection once it has sent two requests); 0 = none")
    @Whole(min = 0, max = 65_536)
    int headerCache;

    @Option(names = "--min-body-rate", paramLabel = "BYTES_PER_S", defaultValue = "128",
            description = "a request body read slower than this fails (servers and admin port); 0 = no minimum")
    @Whole(min = 0, max = 1_000_000_000)
    int minBodyRate;

    @Option(names = "--hop-connect-timeout-ms", paramLabel = "MS", defaultValue = "2000", description = "backend connect timeout of /hops-*")
    @Whole(min = 1, max = 600_000)
    int hopConnectTimeoutMs;

    @Option(names = "--hop-timeout-ms", paramLabel = "MS", defaultValue = "5000", description = "backend answer timeout of each hop")
    @Whole(min = 1, max = 600_000)
    int hopTimeoutMs;

    @Option(names = "--hop-client", paramLabel = "url|jdk|jetty", defaultValue = "url", converter = Converters.HopClient.class,
            description = "the blocking client /hops-blocking waits on: HttpURLConnection, JDK HttpClient.send, Jetty's HttpClient")
    HopClientKind hopClient;

    @Option(names = "--max-in-flight", paramLabel = "N|auto[:gradient2|vegas|aimd]", defaultValue = "0", converter = Converters.Limit.class,
            description = "requests handled at once per server before the rest queue; 0 = no limit; auto = a limit that moves with the latency and drops it sees (auto = auto:gradient2)")
    MaxInFlight maxInFlight;

    @Option(names = "--max-in-flight-wait-ms", paramLabel = "MS",
            description = "with --max-in-flight: how long a queued request waits before 503 + Retry-After (default " + ServerPlan.MAX_IN_FLIGHT_WAIT_MS + ")")
    @Whole(min = 0, max = 600_000)
    Integer maxInFlightWaitMs;

    @Option(names = "--db", description = "start a PostgreSQL of Loomylin's own on loopback (bundled, nothing to install; stopped and deleted on exit) for /db-blocking")
    boolean db;

    @Option(names = "--db-url", paramLabel = "URL",
            description = "use this database for /db-blocking instead: jdbc:postgresql://HOST:PORT/NAME?user=U&password=P (the table " + Items.TABLE + " is created there if missing)")
    String dbUrl;

    @Option(names = "--db-bin", paramLabel = "DIR", converter = CommandLines.PathValue.class,
            description = "with --db: the bin directory of a PostgreSQL install to start instead of the bundled one")
    Path dbBin;

    @Option(names = "--db-pool", paramLabel = "N", defaultValue = "10", description = "connections in each server's database pool (HikariCP)")
    @Whole(min = 1, max = DbOptions.POOL_MAX)
    int dbPool;

    @Option(names = "--db-timeout-ms", paramLabel = "MS", defaultValue = "1000",
            description = "how long a request waits for a free connection before 503 (at least " + DbOptions.TIMEOUT_MIN_MS + ")")
    @Whole(min = DbOptions.TIMEOUT_MIN_MS, max = 600_000)
    int dbTimeoutMs;

    @Option(names = "--data-file-bytes", paramLabel = "BYTES", defaultValue = "" + Limits.DATA_FILE_BYTES_DEFAULT,
            description = "size of the random data file /mixed reads, made at start-up and deleted on exit (" + Limits.DATA_FILE_BYTES_MIN + "-" + Limits.DATA_FILE_BYTES_MAX + ")")
    @Whole(min = Limits.DATA_FILE_BYTES_MIN, max = Limits.DATA_FILE_BYTES_MAX)
    int dataFileBytes;

    @Option(names = "--data-dir", paramLabel = "DIR", converter = CommandLines.PathValue.class,
            description = "where the data file is written; unset: a new temporary directory")
    Path dataDir;

    @Option(names = "--admin-port", paramLabel = "PORT",
            description = "admin port: /metrics and the live view; 0 = off (default: after the backend's port, 7004 by default)")
    @Whole(min = 0, max = 65535)
    Integer adminPort;

    @Option(names = "--race-from", paramLabel = "ADDRESSES",
            description = "besides loopback, who may start a race from the live view: IP addresses, CIDR ranges, gateway (the default gateway, for a container's published port); comma-separated")
    String raceFrom;

    @Option(names = "--admin-hosts", paramLabel = "NAMES",
            description = "besides localhost and IP addresses, Host names the admin port serves the live figures and races to; comma-separated")
    String adminHosts;

    static final String USAGE = """
            Usage:
              java -jar loomylin.jar [flags]             three servers (ports 7000-7002) and the backend (7003)
              java -jar loomylin.jar advise [flags]      your request profile measured on three pools (see: advise --help)
              java -jar loomylin.jar backend [flags]     the backend alone (see: backend --help)
              java -jar loomylin.jar bare-jetty [flags]  a bare Jetty Handler (or Javalin route) on one pool (see: bare-jetty --help)
              java -jar loomylin.jar bench [flags]       the benchmark (see: bench --help)
              java -jar loomylin.jar clients [flags]     nio/threads/virtual clients holding N connections (see: clients --help)
              java -jar loomylin.jar report [--check]    re-render the docs' result tables from gfx/results (see: report --help)

            Pools (KIND): qtp:N     Jetty QueuedThreadPool of N platform threads, all started up front
                          qtp:MIN-MAX  QueuedThreadPool that starts MIN platform threads and grows to MAX (qtp:8-200: new QueuedThreadPool())
                          loom      LoomThreadPool: a virtual thread per request, platform threads for Jetty's selector/acceptor
                          jetty-vtp Jetty's VirtualThreadPool, everything virtual (jetty-vtp:N caps concurrent tasks at N)
                          qtp-vt:N  QueuedThreadPool of N platform threads + an unbounded virtual-threads executor
                          qtp-vtp:N:M  QueuedThreadPool of N platform threads + a VirtualThreadPool running at most M tasks at once

            Routes on every server: %s
                                    (parameters and limits: README, Endpoints)

            Flags (each also settable by the environment variable shown):
            """.formatted(Routes.listing());

    /** The whole help: the usage above and every flag with its default and variable. */
    static String help() {
        return USAGE + CommandLines.flagTable(new ServeFlags());
    }
}
