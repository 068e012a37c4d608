package loomylin.server.launch;

import io.javalin.Javalin;
import io.javalin.util.JavalinBindException;
import io.javalin.util.JavalinException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import loomylin.server.admin.AdminOptions;
import loomylin.server.admin.AdminServer;
import loomylin.server.admin.Watched;
import loomylin.server.backend.Backend;
import loomylin.server.cli.DataFile;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.GracefulStop;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.jetty.Twin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the servers' lifecycle: starts what {@code java -jar loomylin.jar} or a twin's {@code main} asks for: the servers, one per pool,
 * on consecutive ports (or each on an ephemeral port with {@code --port 0}), and the embedded backend after
 * them; then waits for SIGTERM or Ctrl-C and stops everything within {@code --grace-ms} plus one second.
 */
public final class Launcher {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");

    private Launcher() {
    }

    /** The options {@code args} and the environment ask for, read once; empty after printing the usage for {@code --help}. */
    public static java.util.Optional<ServeOptions> options(String[] args) {
        return ServeOptions.parse(args, System.getenv());
    }

    /** A twin's main from an IDE: its own servers, unless --twin asks for the other. */
    public static void serve(String[] args, Twin twin, Function<ServerOptions, Javalin> servers) {
        options(args).ifPresent(o -> {
            if (o.twin() != twin)
                throw new UsageError("this is the " + twin + " twin's main; run java -jar loomylin.jar --twin " + o.twin() + " for the other");
            serve(o, servers);
        });
    }

    /** Starts what {@code options} asks for with {@code servers} (the twin's AppServer) and runs until a signal stops it. */
    public static void serve(ServeOptions options, Function<ServerOptions, Javalin> servers) {
        Twin twin = options.twin();
        ServerOptions base = options.base();
        List<ServerOptions> asked = options.servers();
        DatabasePlan database = options.database();
        List<AutoCloseable> running = new ArrayList<>();
        List<Integer> bound = new ArrayList<>();
        List<Watched> watched = new ArrayList<>();
        org.eclipse.jetty.server.Server backendServer = null;
        try {
            DataFile data = DataFile.create(options.dataDir(), options.dataFileBytes());
            running.add(data);
            List<ServerOptions> planned = asked.stream().map(o -> o.withDataFile(data.path()).withDataFileBytes(data.bytes())).toList();
            log("data file {} ({} bytes)", data.path(), data.bytes());
            if (options.backendPort() != null) {
                int backendPort = options.backendPort();
                // grace 0: it stops after every server (Shutdown.stopAll), when no request can need it any more, so it
                // waits for nothing; with a grace it would wait for the hop clients' idle keep-alive connections
                Backend backend = bind(() -> Backend.start(base.host(), backendPort, options.backendDelayMs(),
                        Backend.Fault.NONE, null, 0));
                running.add(backend);
                backendServer = backend.jettyServer();
                URI url = URI.create("http://" + ServerPlan.reach(base.host()) + ":" + backend.port());
                planned = planned.stream().map(o -> o.withBackend(url)).toList();
                log("backend on port {} ({}, delay {} ms)", backend.port(), Backend.ROUTES, options.backendDelayMs());
            }
            planned = database.start(planned, running);
            for (ServerOptions o : planned) {
                Javalin app = bind(() -> servers.apply(o));
                running.add(() -> GracefulStop.stop(app));
                bound.add(app.port()); // what was bound; with --port 0 not what was asked
                watched.add(new Watched(app.port(), o.pool().toString(), app.jettyServer().server()));
                log("port {} on {}: {} ({} twin), hop client {}{}", app.port(), o.pool(), o.pool().describe(), twin, o.hopClient(),
                        o.maxInFlight().isSet() ? ", max " + o.maxInFlight() + " in flight" : "");
            }
            int adminPort = options.adminPort();
            if (adminPort >= 0) {
                AdminOptions admin = AdminOptions.DEFAULTS.withHost(base.host()).withPort(adminPort).withReachHost(ServerPlan.reach(base.host()))
                        .withServers(watched).withHeaderTimeoutMs(base.headerTimeoutMs()).withMinBodyRate(base.minBodyRate())
                        .withRaceFrom(options.raceFrom()).withAdminHosts(options.adminHosts()).withBackend(backendServer);
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
