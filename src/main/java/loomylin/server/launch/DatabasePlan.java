package loomylin.server.launch;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
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
    static DatabasePlan of(ServeFlags flags) {
        if (flags.db && flags.dbUrl != null) throw new UsageError("give --db (Loomylin's own PostgreSQL) or --db-url (yours), not both");
        if (flags.dbBin != null && !flags.db) throw new UsageError("--db-bin goes with --db");
        if (flags.dbUrl != null) {
            try {
                DbOptions.ofUrl(flags.dbUrl, flags.dbPool, flags.dbTimeoutMs);
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage() + ", got '" + Params.printable(flags.dbUrl.split("\\?")[0]) + "'");
            }
        }
        return new DatabasePlan(flags.db, flags.dbBin, flags.dbUrl, flags.dbPool, flags.dbTimeoutMs);
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
