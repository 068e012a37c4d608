package loomylin.server.db;

/**
 * A server's database pool at one moment, as /pool, /metrics and the live view show it.
 *
 * @param size connections the pool keeps ({@code --db-pool})
 * @param total connections open now
 * @param active connections lent to requests now
 * @param idle connections waiting in the pool
 * @param pending requests waiting for a connection now: the queue that a pool of virtual threads moves from Jetty to here
 * @param acquired connections handed out since start
 * @param waitSeconds time requests spent waiting for those connections, summed
 * @param timeouts requests that waited {@code --db-timeout-ms} and got none (each answered 503)
 * @param async the non-blocking client's pool (Vert.x's, behind {@code /db-async}), of the same size; all zero until
 *        the first {@code /db-async} makes it
 *
 * <p>All but {@code async} are the JDBC pool's (HikariCP's, behind {@code /db-blocking}).
 */
public record DbFigures(int size, int total, int active, int idle, int pending, long acquired, double waitSeconds, long timeouts, Async async) {

    /**
     * Vert.x's pool at one moment ({@link VertxPoolFigures}).
     *
     * @param active connections lent to requests now
     * @param pending requests waiting for a connection now
     * @param acquired connections handed out since start
     * @param waitSeconds time requests spent waiting in the pool's queue, summed; those that timed out included
     * @param timeouts requests that waited {@code --db-timeout-ms} and got none (each answered 503)
     */
    public record Async(int active, int pending, long acquired, double waitSeconds, long timeouts) {
    }

    /** Connections lent now, by either client. */
    public int activeEither() {
        return active + async.active();
    }

    /** Requests waiting for a connection now, from either client. */
    public int pendingEither() {
        return pending + async.pending();
    }

    /** Requests that got no connection in time, from either client. */
    public long timeoutsEither() {
        return timeouts + async.timeouts();
    }

    /**
     * The figures as /pool's fields: dbSize, dbTotal, dbActive, dbIdle, dbPending, dbAcquired, dbWaitSeconds, dbTimeouts for
     * the JDBC pool, then dbAsyncActive, dbAsyncPending, dbAsyncAcquired, dbAsyncWaitSeconds, dbAsyncTimeouts for Vert.x's.
     */
    public java.util.Map<String, Object> fields() {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("dbSize", size);
        m.put("dbTotal", total);
        m.put("dbActive", active);
        m.put("dbIdle", idle);
        m.put("dbPending", pending);
        m.put("dbAcquired", acquired);
        m.put("dbWaitSeconds", waitSeconds);
        m.put("dbTimeouts", timeouts);
        m.put("dbAsyncActive", async.active());
        m.put("dbAsyncPending", async.pending());
        m.put("dbAsyncAcquired", async.acquired());
        m.put("dbAsyncWaitSeconds", async.waitSeconds());
        m.put("dbAsyncTimeouts", async.timeouts());
        return m;
    }
}
