package loomylin.server.launch;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.db.DbOptions;
import loomylin.server.db.DbStartFailure;
import loomylin.server.db.Items;
import loomylin.server.db.LocalPostgres;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.web.Params;

/**
 * The database flags read once, before anything starts: none, {@code --db} (a PostgreSQL of Loomylin's own, from
 * the bundled binaries or {@code --db-bin}), or {@code --db-url} (the user's), each server with a pool of
 * {@code --db-pool} connections that waits {@code --db-timeout-ms} for one.
 */
record DatabasePlan(boolean own, Path bin, String url, int poolSize, int timeoutMs) {
    static DatabasePlan of(Flags flags) {
        boolean own = flags.on("db");
        String url = flags.get("db-url");
        String bin = flags.get("db-bin");
        if (own && url != null) throw new UsageError("give --db (Loomylin's own PostgreSQL) or --db-url (yours), not both");
        if (bin != null && !own) throw new UsageError("--db-bin goes with --db");
        int poolSize = flags.integer("db-pool", 1, DbOptions.POOL_MAX);
        int timeoutMs = flags.integer("db-timeout-ms", DbOptions.TIMEOUT_MIN_MS, 600_000);
        if (url != null) {
            try {
                DbOptions.ofUrl(url, poolSize, timeoutMs);
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage() + ", got '" + Params.printable(url.split("\\?")[0]) + "'");
            }
        }
        Path binDir = null;
        if (bin != null) {
            try {
                binDir = Path.of(bin);
            } catch (InvalidPathException e) {
                throw new UsageError("--db-bin is not a path: '" + Params.printable(bin) + "'");
            }
        }
        return new DatabasePlan(own, binDir, url, poolSize, timeoutMs);
    }

    /**
     * Starts (with {@code --db}) or prepares (with {@code --db-url}) the database and gives every server its
     * options; what was started goes into {@code running}, to be stopped with the rest.
     */
    List<ServerOptions> start(List<ServerOptions> planned, List<AutoCloseable> running) {
        DbOptions db;
        if (own) {
            LocalPostgres pg;
            try {
                pg = LocalPostgres.start(bin, planned.size() * poolSize * 2 + 10); // a blocking and a non-blocking pool per server
            } catch (DbStartFailure e) {
                throw new StartupFailure(e.getMessage());
            }
            running.add(pg);
            db = pg.options(poolSize, timeoutMs);
            Launcher.log("database: PostgreSQL {} on 127.0.0.1:{} (pid {}, {} rows in {}), {} connections per server",
                    pg.version(), pg.port(), pg.pid(), Items.ROWS, Items.TABLE, poolSize);
        } else if (url != null) {
            db = DbOptions.ofUrl(url, poolSize, timeoutMs);
            try {
                Items.seed(db);
            } catch (SQLException e) {
                throw new StartupFailure("database " + db.shownUrl() + ": " + e.getMessage().lines().findFirst().orElse("").strip());
            }
            Launcher.log("database: {} ({} rows in {}), {} connections per server", db.shownUrl(), Items.ROWS, Items.TABLE, poolSize);
        } else {
            return planned;
        }
        DbOptions chosen = db;
        return planned.stream().map(o -> o.withDb(chosen)).toList();
    }
}
