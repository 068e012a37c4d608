package loomylin.server.db;

import loomylin.server.web.OneLineFailure;

/**
 * A database read failed, answered in one line: 503 when no connection came free within {@code --db-timeout-ms}
 * (the pool is the bound: come back later) or the server has no database, 502 when the database refused or
 * failed the query.
 */
public final class DbFailure extends OneLineFailure {
    public DbFailure(int status, String message) {
        super(status, message);
    }

    /** A database route on a server started without one. */
    public static DbFailure noDatabase() {
        return new DbFailure(503, "no database: start Loomylin with --db (a PostgreSQL of its own) or --db-url jdbc:postgresql://...");
    }
}
