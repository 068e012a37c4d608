package loomylin.server.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.pool.HikariPool;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.component.Dumpable;

/**
 * One server's database pools, as a Jetty lifecycle bean of that server: JDBC through HikariCP for
 * {@code /db-blocking}, and Vert.x's non-blocking PostgreSQL client for {@code /db-async}, each of
 * {@link DbOptions#poolSize()} connections. The JDBC pool opens its connections when the server starts (failing
 * the start, in one line, when the database cannot be reached); the non-blocking one, and Vert.x with it, is made
 * on the first {@code /db-async}. Both close
 * when the server stops, after the graceful stop has let in-flight requests finish. A request waits at most
 * {@link DbOptions#timeoutMs()} for a connection, then gets a one-line 503 ({@link #failure(Throwable)}).
 *
 * <p>Its figures ({@link #figures()}) are the JDBC pool's, HikariCP's own: connections active, idle and in all, requests waiting
 * for one, and from its metrics hook the connections handed out, the time spent waiting for them and the waits
 * that timed out; and the non-blocking pool's, through Vert.x's metrics SPI ({@link VertxPoolFigures}).
 */
public final class DbPool extends AbstractLifeCycle implements Dumpable {
    /** The message of Vert.x's SQL pool when no connection came free in time (SqlConnectionPool, 5.0.7); DbBlockingTest checks it. */
    static final String VERTX_POOL_TIMEOUT = "Timeout waiting for connection";
    private static final long STOP_MS = 2_000;
    private final DbOptions options;
    private final String name;
    private final LongAdder acquired = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final VertxPoolFigures asyncFigures = new VertxPoolFigures();
    private volatile HikariDataSource source;
    private volatile Vertx vertx;
    private volatile Pool async;

    /** A pool for {@code options}; {@code name} names its threads ({@code name housekeeper}, ...). */
    public DbPool(DbOptions options, String name) {
        this.options = options;
        this.name = name;
    }

    /** The pool a server runs with, if it has one. */
    public static Optional<DbPool> of(Server server) {
        return Optional.ofNullable(server.getBean(DbPool.class));
    }

    public DbOptions options() {
        return options;
    }

    @Override
    protected void doStart() {
        HikariConfig c = new HikariConfig();
        c.setPoolName(name);
        c.setJdbcUrl(options.jdbcUrl());
        if (options.user() != null) c.setUsername(options.user());
        if (options.password() != null) c.setPassword(options.password());
        c.setMaximumPoolSize(options.poolSize());
        c.setMinimumIdle(options.poolSize()); // a fixed pool: what bounds the work is its size, not its growth
        c.setConnectionTimeout(options.timeoutMs());
        c.setInitializationFailTimeout(Math.max(options.timeoutMs(), 5_000));
        c.setReadOnly(true);
        c.setMetricsTrackerFactory((pool, stats) -> new IMetricsTracker() {
            @Override
            public void recordConnectionAcquiredNanos(long nanos) {
                acquired.increment();
                waitNanos.add(nanos);
            }

            @Override
            public void recordConnectionTimeout() {
                timeouts.increment();
            }
        });
        try {
            source = new HikariDataSource(c);
        } catch (HikariPool.PoolInitializationException | IllegalArgumentException e) {
            throw new DbStartFailure("database " + options.shownUrl() + ": " + oneLine(e));
        }
    }

    @Override
    protected void doStop() {
        HikariDataSource s = source;
        source = null;
        if (s != null) s.close();
        Pool a;
        Vertx v;
        synchronized (this) {
            a = async;
            v = vertx;
            async = null;
            vertx = null;
        }
        try {
            if (a != null) a.close().toCompletionStage().toCompletableFuture().get(STOP_MS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // its connections are closed with Vert.x below
        }
        try {
            if (v != null) v.close().toCompletionStage().toCompletableFuture().get(STOP_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Vert.x's threads are daemons: they cannot hold the process
        }
    }

    /**
     * The non-blocking client's pool (Vert.x's PostgreSQL client), as big as the blocking one and waiting as long
     * for a connection; {@link #failure(Throwable)} says in one line what went wrong with a query on it.
     */
    public Pool async() {
        Pool a = async;
        if (a != null) return a;
        synchronized (this) {
            if (!isRunning()) throw new DbFailure(503, "database pool " + name + " is not running");
            if (async == null) {
                // made on first use: a server that never serves /db-async has no Vert.x threads and opens no second pool
                vertx = Vertx.builder().with(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1).setInternalBlockingPoolSize(1)
                        .setMetricsOptions(new MetricsOptions().setEnabled(true))).withMetrics(asyncFigures.factory()).build();
                PgConnectOptions connect = PgConnectOptions.fromUri(options.jdbcUrl().substring("jdbc:".length()));
                if (options.user() != null) connect.setUser(options.user());
                if (options.password() != null) connect.setPassword(options.password());
                async = PgBuilder.pool().with(new PoolOptions().setMaxSize(options.poolSize()).setConnectionTimeout(options.timeoutMs())
                        .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS).setName(name + "-async")).connectingTo(connect).using(vertx).build();
            }
            return async;
        }
    }

    /**
     * A connection from the pool, waited for at most {@link DbOptions#timeoutMs()}; close it to give it back.
     *
     * @throws DbFailure 503 when none came free in time or the pool is not running, 502 when the database failed
     */
    public Connection connection() {
        HikariDataSource s = source;
        if (s == null) throw new DbFailure(503, "database pool " + name + " is not running");
        try {
            return s.getConnection();
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /**
     * What a failed read answers: 503 for a pool that had no connection in time (HikariCP's
     * {@link SQLTransientConnectionException}, Vert.x's "Timeout waiting for connection"), 502 for the rest. Call it
     * once per failed request: it counts Vert.x's timeouts, which Vert.x reports nowhere else (HikariCP counts its own).
     */
    public DbFailure failure(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof DbFailure f) return f;
        boolean vertxTimeout = VERTX_POOL_TIMEOUT.equals(cause.getMessage());
        if (vertxTimeout) asyncFigures.timedOut();
        if (cause instanceof SQLTransientConnectionException || vertxTimeout)
            return new DbFailure(503, "database pool: no connection free within " + options.timeoutMs() + " ms (" + options.poolSize()
                    + " connections, all busy); try again later");
        return new DbFailure(502, "database " + options.shownUrl() + ": " + oneLine(cause));
    }

    /** The pool's figures now: all zero while it is not running. */
    public DbFigures figures() {
        HikariDataSource s = source;
        HikariPoolMXBean bean = s == null ? null : s.getHikariPoolMXBean();
        if (bean == null) return new DbFigures(options.poolSize(), 0, 0, 0, 0, acquired.sum(), waitNanos.sum() / 1e9, timeouts.sum(), asyncFigures.snapshot());
        return new DbFigures(options.poolSize(), bean.getTotalConnections(), bean.getActiveConnections(), bean.getIdleConnections(),
                bean.getThreadsAwaitingConnection(), acquired.sum(), waitNanos.sum() / 1e9, timeouts.sum(), asyncFigures.snapshot());
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        Dumpable.dumpObjects(out, indent, this, figures());
    }

    @Override
    public String toString() {
        return String.format("DbPool@%x{%s,%s,size=%d,timeout=%dms}", hashCode(), getState(), options.shownUrl(), options.poolSize(), options.timeoutMs());
    }

    private static String oneLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse("").strip();
    }
}
