package loomylin.server.launch;

import java.util.List;
import loomylin.server.cli.Flags;
import loomylin.server.db.DbOptions;
import loomylin.server.db.Items;
import loomylin.server.jetty.PoolKind;
import loomylin.server.web.Limits;
import loomylin.server.web.Routes;

/** The servers' command line: its flags (each also an environment variable) and its usage text. */
public final class ServeFlags {
    private ServeFlags() {
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
            new Flags.Flag("header-cache", "N", "0", "entries in each keep-alive connection's header cache (Jetty's default is 1024, about 64 KB a connection once it has sent two requests); 0 = none"),
            new Flags.Flag("min-body-rate", "BYTES_PER_S", "128", "a request body read slower than this fails (servers and admin port); 0 = no minimum"),
            new Flags.Flag("hop-connect-timeout-ms", "MS", "2000", "backend connect timeout of /hops-*"),
            new Flags.Flag("hop-timeout-ms", "MS", "5000", "backend answer timeout of each hop"),
            new Flags.Flag("hop-client", "url|jdk|jetty", "url", "the blocking client /hops-blocking waits on: HttpURLConnection, JDK HttpClient.send, Jetty's HttpClient"),
            new Flags.Flag("grace-ms", "MS", "5000", "on stop, how long in-flight requests may take to finish; the process ends within this + 1 s"),
            new Flags.Flag("max-in-flight", "N|auto[:gradient2|vegas|aimd]", "0", "requests handled at once per server before the rest queue; 0 = no limit; auto = a limit that moves with the latency and drops it sees (auto = auto:gradient2)"),
            new Flags.Flag("max-in-flight-wait-ms", "MS", null, "with --max-in-flight: how long a queued request waits before 503 + Retry-After (default 1000)"),
            new Flags.Flag("db", null, null, "start a PostgreSQL of Loomylin's own on loopback (bundled, nothing to install; stopped and deleted on exit) for /db-blocking"),
            new Flags.Flag("db-url", "URL", null, "use this database for /db-blocking instead: jdbc:postgresql://HOST:PORT/NAME?user=U&password=P (the table " + Items.TABLE + " is created there if missing)"),
            new Flags.Flag("db-bin", "DIR", null, "with --db: the bin directory of a PostgreSQL install to start instead of the bundled one"),
            new Flags.Flag("db-pool", "N", "10", "connections in each server's database pool (HikariCP)"),
            new Flags.Flag("db-timeout-ms", "MS", "1000", "how long a request waits for a free connection before 503 (at least " + DbOptions.TIMEOUT_MIN_MS + ")"),
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

}
