package loomylin.testing;

import loomylin.server.db.DbOptions;
import loomylin.server.db.LocalPostgres;

/**
 * One real PostgreSQL for every in-process test of a test JVM ({@link LocalPostgres}, from the bundled binaries),
 * started on first use and stopped (its directory deleted) when the JVM exits. Each server a test starts gets a
 * pool of its own on it; the database allows {@link #MAX_CONNECTIONS} at once.
 */
public final class TestDatabase {
    public static final int MAX_CONNECTIONS = 300;
    private static LocalPostgres postgres;

    private TestDatabase() {
    }

    public static synchronized LocalPostgres get() {
        if (postgres == null) postgres = LocalPostgres.start(null, MAX_CONNECTIONS);
        return postgres;
    }

    /** A pool of {@code poolSize} connections on the test database that waits {@code timeoutMs} for one. */
    public static DbOptions options(int poolSize, int timeoutMs) {
        return get().options(poolSize, timeoutMs);
    }

    /** A small pool with a generous timeout: what a test that only needs answers uses. */
    public static DbOptions options() {
        return options(2, 5_000);
    }
}
