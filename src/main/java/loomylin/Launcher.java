package loomylin;

import io.javalin.Javalin;
import io.javalin.util.JavalinBindException;
import io.javalin.util.JavalinException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Starts what {@code java -jar loomylin.jar} or a twin's {@code main} asks for: the servers, one per pool,
 * on consecutive ports, and the embedded backend after them; then waits for SIGTERM or Ctrl-C and stops
 * everything gracefully, exit status 0.
 */
public final class Launcher {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");

    private Launcher() {
    }

    public static final String DEFAULT_POOLS = "qtp:4,qtp:32,loom";

    public static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("twin", "java|kotlin", "java", "which implementation serves the endpoints"),
            new Flags.Flag("pools", "KIND,KIND,...", DEFAULT_POOLS, "one server per pool, on consecutive ports from --port; KIND is " + PoolKind.HELP),
            new Flags.Flag("pool", "PORT=KIND", null, "override one port's pool (repeatable; env LOOMYLIN_POOL_<PORT>=KIND)"),
            new Flags.Flag("port", "PORT", "7000", "port of the first server"),
            new Flags.Flag("host", "HOST", "0.0.0.0", "address to bind"),
            new Flags.Flag("backend", "URL", null, "use this backend for /hops-* instead of starting the embedded one"),
            new Flags.Flag("backend-port", "PORT", "first port + number of servers", "port of the embedded backend"),
            new Flags.Flag("delay", "MS", String.valueOf(Limits.DELAY_DEFAULT), "embedded backend's delay per call"),
            new Flags.Flag("accept-queue", "N", "4096", "kernel accept backlog of each server"),
            new Flags.Flag("idle-timeout-ms", "MS", "30000", "close a connection idle this long"),
            new Flags.Flag("hop-connect-timeout-ms", "MS", "2000", "backend connect timeout of /hops-*"),
            new Flags.Flag("hop-timeout-ms", "MS", "5000", "backend answer timeout of each hop"),
            new Flags.Flag("grace-ms", "MS", "5000", "on stop, how long in-flight requests may take to finish"),
            new Flags.Flag("max-in-flight", "N", "0", "requests handled at once per server before the rest queue (Jetty QoSHandler); 0 = no limit"),
            new Flags.Flag("max-in-flight-wait-ms", "MS", "1000", "how long a queued request waits before 503 + Retry-After"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    public static final String USAGE = """
            Usage:
              java -jar loomylin.jar [flags]             three servers (ports 7000-7002) and the backend (7003)
              java -jar loomylin.jar backend [flags]     the backend alone (see: backend --help)
              java -jar loomylin.jar bench [flags]       the benchmark (see: bench --help)

            Pools (KIND): qtp:N     Jetty QueuedThreadPool of N platform threads
                          loom      LoomThreadPool: a virtual thread per request, platform threads for Jetty's selector/acceptor
                          jetty-vtp Jetty's VirtualThreadPool, everything virtual (jetty-vtp:N caps concurrent tasks at N)
                          qtp-vt:N  QueuedThreadPool of N platform threads + Jetty's virtual-threads executor

            Routes on every server: /computational?iterations=N  /wait-blocking?ms=N  /wait-async?ms=N
                                    /hops-blocking  /hops-async  /pool

            Flags (each also settable by the environment variable shown):
            """;

    /** Serves with the given twin; {@code twin} is the twin whose main called, kept unless --twin says otherwise. */
    public static void serve(String[] args, String twin, Function<ServerOptions, Javalin> servers) {
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print(USAGE + Flags.describe(FLAGS));
            return;
        }
        String wanted = flags.get("twin");
        if (!wanted.equals(twin))
            throw new UsageError("this is the " + twin + " twin's main; run java -jar loomylin.jar --twin " + Params.printable(wanted) + " for the other");
        ServerOptions base = options(flags, twin);
        Map<Integer, PoolKind> pools = pools(flags, base.port);

        List<AutoCloseable> running = new ArrayList<>();
        try {
            if (flags.get("backend") == null) {
                int backendPort = flags.get("backend-port").startsWith("first")
                        ? base.port + pools.size()
                        : flags.integer("backend-port", 0, 65535);
                Backend backend = bind(() -> Backend.start(base.host, backendPort, flags.integer("delay", 0, Limits.DELAY_MAX), Backend.Fault.NONE));
                running.add(backend);
                String reach = base.host.equals("0.0.0.0") || base.host.equals("::") ? "localhost" : base.host;
                base.backend = URI.create("http://" + (reach.contains(":") ? "[" + reach + "]" : reach) + ":" + backend.port());
                log("backend on port {} ({}, delay {} ms)", backend.port(), Backend.ROUTES, flags.get("delay"));
            }
            for (Map.Entry<Integer, PoolKind> e : pools.entrySet()) {
                ServerOptions o = base.copy();
                o.port = e.getKey();
                o.pool = e.getValue();
                Javalin app = bind(() -> servers.apply(o));
                running.add(app::stop);
                log("port {} on {}: {} ({} twin){}", app.port(), o.pool, o.pool.describe(), twin,
                        o.maxInFlight > 0 ? ", max " + o.maxInFlight + " in flight" : "");
            }
        } catch (RuntimeException e) {
            stopAll(running);
            throw e;
        }
        log("ready; try: curl http://localhost:{}/wait-blocking    stop with Ctrl-C or SIGTERM", pools.keySet().iterator().next());
        awaitSignal(running);
    }

    private static ServerOptions options(Flags flags, String twin) {
        ServerOptions o = new ServerOptions();
        o.twin = twin;
        o.host = flags.get("host");
        o.port = flags.integer("port", 0, 65535);
        o.acceptQueue = flags.integer("accept-queue", 1, 65535);
        o.idleTimeoutMs = flags.integer("idle-timeout-ms", 100, 3_600_000);
        o.hopConnectTimeoutMs = flags.integer("hop-connect-timeout-ms", 1, 600_000);
        o.hopTimeoutMs = flags.integer("hop-timeout-ms", 1, 600_000);
        o.graceMs = flags.integer("grace-ms", 0, 600_000);
        o.maxInFlight = flags.integer("max-in-flight", 0, 10_000_000);
        o.maxInFlightWaitMs = flags.integer("max-in-flight-wait-ms", 0, 600_000);
        String backend = flags.get("backend");
        if (backend != null) o.backend = backendUrl(backend);
        return o;
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

    /** Port -> pool: --pools on consecutive ports, then --pool PORT=KIND and LOOMYLIN_POOL_PORT overrides. */
    static Map<Integer, PoolKind> pools(Flags flags, int firstPort) {
        List<PoolKind> kinds = new ArrayList<>();
        for (String spec : flags.get("pools").split(",")) {
            if (!spec.isBlank()) kinds.add(kind(spec));
        }
        if (kinds.isEmpty()) throw new UsageError("--pools lists no pool");
        if (firstPort == 0 && kinds.size() > 1) throw new UsageError("--port 0 (any free port) works with one pool only");
        if (firstPort + kinds.size() - 1 > 65535) throw new UsageError("--port " + firstPort + " leaves no room for " + kinds.size() + " servers");
        List<String> overrides = new ArrayList<>();
        flags.env().forEach((k, v) -> {
            if (k.startsWith("LOOMYLIN_POOL_") && k.substring(14).matches("\\d{1,5}")) overrides.add(k.substring(14) + "=" + v);
        });
        overrides.addAll(flags.all("pool"));
        for (String o : overrides) {
            int eq = o.indexOf('=');
            if (eq < 1 || !o.substring(0, eq).matches("\\d{1,5}"))
                throw new UsageError("--pool takes PORT=KIND, e.g. --pool 7002=jetty-vtp; got '" + Params.printable(o) + "'");
            int index = Integer.parseInt(o.substring(0, eq)) - firstPort;
            if (index < 0 || index >= kinds.size())
                throw new UsageError("--pool " + o.substring(0, eq) + "=...: no server on that port; servers are on ports "
                        + firstPort + "-" + (firstPort + kinds.size() - 1));
            kinds.set(index, kind(o.substring(eq + 1)));
        }
        Map<Integer, PoolKind> pools = new LinkedHashMap<>();
        for (int i = 0; i < kinds.size(); i++) pools.put(firstPort == 0 ? 0 : firstPort + i, kinds.get(i));
        return pools;
    }

    private static PoolKind kind(String spec) {
        try {
            return PoolKind.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
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

    /** Blocks until SIGTERM/SIGINT, then stops everything (each within its grace) and exits 0. */
    public static void awaitSignal(List<? extends AutoCloseable> running) {
        CountDownLatch stopped = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        SignalHandler onSignal = signal -> {
            if (stopping.getAndSet(true)) { // a second signal: the user does not want to wait
                log("SIG{} again: exiting now", signal.getName());
                Runtime.getRuntime().halt(1);
            }
            Thread.ofPlatform().name("loomylin-stop").start(() -> {
                log("SIG{}: stopping (in-flight requests may finish; signal again to exit now)", signal.getName());
                stopAll(running);
                stopped.countDown();
            });
        };
        Signal.handle(new Signal("TERM"), onSignal);
        Signal.handle(new Signal("INT"), onSignal);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log("stopped");
        System.exit(0);
    }

    /** Stops the servers in parallel (each waits for its own in-flight requests), the backend last. */
    static void stopAll(List<? extends AutoCloseable> running) {
        List<Thread> stoppers = new ArrayList<>();
        for (int i = running.size() - 1; i >= 0; i--) {
            AutoCloseable c = running.get(i);
            if (c instanceof Backend) continue;
            stoppers.add(Thread.ofPlatform().start(() -> closeQuietly(c)));
        }
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        running.stream().filter(c -> c instanceof Backend).forEach(Launcher::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("stop: {}", e.toString());
        }
    }
}
