package loomylin.server.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * The database a server reads from ({@code /db-blocking}) and the connection pool it reads through: one pool per
 * server, so that servers on different thread pools never share (or starve) each other's connections.
 *
 * @param jdbcUrl where the database is: {@code jdbc:postgresql://host:port/name}
 * @param user the database user; null = the URL's ({@code ?user=})
 * @param password the user's password; null = the URL's ({@code &password=}) or none
 * @param poolSize connections in the pool, all opened at start and kept ({@code --db-pool})
 * @param timeoutMs how long a request waits for a free connection before it is answered 503 ({@code --db-timeout-ms})
 */
public record DbOptions(String jdbcUrl, String user, String password, int poolSize, int timeoutMs) {
    /** HikariCP's own floor for the connection timeout. */
    public static final int TIMEOUT_MIN_MS = 250;
    public static final int POOL_MAX = 1_000;

    public DbOptions {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (poolSize < 1 || poolSize > POOL_MAX) throw new IllegalArgumentException("poolSize " + poolSize);
        if (timeoutMs < TIMEOUT_MIN_MS) throw new IllegalArgumentException("timeoutMs " + timeoutMs);
    }

    /** {@code --db-url}: a PostgreSQL JDBC URL, user and password in it or not. */
    public static DbOptions ofUrl(String url, int poolSize, int timeoutMs) {
        if (!url.startsWith("jdbc:postgresql:"))
            throw new IllegalArgumentException("--db-url must be a PostgreSQL JDBC URL: jdbc:postgresql://HOST:PORT/NAME");
        return new DbOptions(url, null, null, poolSize, timeoutMs);
    }

    /**
     * A connection of its own to the database, outside any pool (seeding, the bench's resets and samples, tests),
     * connecting for at most {@link #timeoutMs()} in whole seconds, at least one.
     */
    public Connection connect() throws SQLException {
        Properties p = new Properties();
        if (user != null) p.setProperty("user", user);
        if (password != null) p.setProperty("password", password);
        p.setProperty("connectTimeout", String.valueOf(Math.max(1, timeoutMs / 1000)));
        return DriverManager.getConnection(jdbcUrl, p);
    }

    /** The URL without anything after '?', which may carry a password: what logs and /pool show. */
    public String shownUrl() {
        int q = jdbcUrl.indexOf('?');
        return q < 0 ? jdbcUrl : jdbcUrl.substring(0, q);
    }
}
