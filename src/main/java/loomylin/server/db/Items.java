package loomylin.server.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The table every database endpoint reads: {@value #ROWS} rows of about 300 bytes under a primary-key index, so that
 * a read walks a real B-tree, and the one query both twins run on it.
 */
public final class Items {
    private Items() {
    }

    public static final String TABLE = "loomylin_items";
    public static final int ROWS = 100_000;

    /**
     * One row by its key, and a wait on the database server of the caller's choosing: parameter 1 is the wait in
     * seconds ({@code pg_sleep}, once), parameter 2 the row's id. The answer's one column is the row's name.
     */
    public static final String QUERY = "SELECT i.name FROM pg_sleep(?) s, " + TABLE + " i WHERE i.id = ?";
    /** {@link #QUERY} in PostgreSQL's own placeholders, for the non-blocking client. */
    public static final String ASYNC_QUERY = "SELECT i.name FROM pg_sleep($1) s, " + TABLE + " i WHERE i.id = $2";

    /** The name of row {@code id}, as {@link #seed} writes it. */
    public static String name(int id) {
        return "item-" + id;
    }

    /** {@link #seed(Connection)} through a connection of its own to {@code db}. */
    public static void seed(DbOptions db) throws SQLException {
        try (Connection c = db.connect()) {
            seed(c);
        }
    }

    /**
     * Creates and fills the table if it is not there yet (a database of the user's own keeps it between runs),
     * then refreshes the planner's statistics.
     */
    public static void seed(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id integer PRIMARY KEY, name text NOT NULL, body text NOT NULL)");
            s.execute("INSERT INTO " + TABLE + " SELECT g, 'item-' || g, repeat(md5(g::text), 9) FROM generate_series(1, " + ROWS
                    + ") g ON CONFLICT (id) DO NOTHING");
            s.execute("ANALYZE " + TABLE);
        }
    }
}
