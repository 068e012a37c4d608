package loomylin.server.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import loomylin.server.admin.AdminServer;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.jetty.Twin;

/**
 * The server command's flags and {@code LOOMYLIN_*} variables, read once into typed values before anything starts:
 * picocli fills {@link ServeFlags}' fields (each value typed and in its range, or a one-line usage error), and the
 * checks between flags are here (and in {@link ServerPlan} and {@link DatabasePlan}, which it calls);
 * {@link Launcher#serve} reads only this.
 *
 * @param twin          which twin serves ({@code --twin})
 * @param base          the settings every server shares; its port is the first server's
 * @param servers       one per server, in port order, each with its pool
 * @param backendPort   the embedded backend's port, or null when {@code --backend} names one elsewhere
 * @param backendDelayMs the embedded backend's delay per call
 * @param dataFileBytes the size of the data file /mixed reads
 * @param dataDir       where the data file is written; null = a new temporary directory
 * @param database      the database /db-blocking reads, if any
 * @param adminPort     the admin port; -1 = off, 0 = a free one
 * @param raceFrom      {@code --race-from}, checked
 * @param adminHosts    {@code --admin-hosts}, checked
 */
public record ServeOptions(Twin twin, ServerOptions base, List<ServerOptions> servers, Integer backendPort, int backendDelayMs, int dataFileBytes,
                           Path dataDir, DatabasePlan database, int adminPort, String raceFrom, String adminHosts) {
    public ServeOptions {
        Objects.requireNonNull(twin, "twin");
        servers = List.copyOf(servers);
    }

    /** The options {@code args} and {@code env} ask for; empty after printing the usage when they ask for {@code --help}. */
    public static Optional<ServeOptions> parse(String[] args, Map<String, String> env) {
        ServeFlags flags = new ServeFlags();
        if (CommandLines.parse(flags, args, env)) {
            System.out.print(ServeFlags.help());
            return Optional.empty();
        }
        ServerOptions base = ServerPlan.options(flags);
        String raceFrom = Objects.requireNonNullElse(flags.raceFrom, "");
        String adminHosts = Objects.requireNonNullElse(flags.adminHosts, "");
        UsageError.parsing(from -> {
            AdminServer.checkAccess(from, adminHosts);
            return from;
        }, raceFrom);
        List<ServerOptions> servers = ServerPlan.planned(flags, env, base);
        DatabasePlan database = DatabasePlan.of(flags);
        Integer backendPort = null;
        if (flags.backend == null) {
            backendPort = flags.backendPort != null ? flags.backendPort : base.port() == 0 ? 0 : base.port() + servers.size();
        }
        int adminPort = ServerPlan.adminPort(flags, base.port(), servers.size());
        return Optional.of(new ServeOptions(flags.twin, base, servers, backendPort, flags.common.delayMs, flags.dataFileBytes, flags.dataDir, database,
                adminPort, raceFrom, adminHosts));
    }
}
