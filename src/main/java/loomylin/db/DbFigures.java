package loomylin.db;

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
 */
public record DbFigures(int size, int total, int active, int idle, int pending, long acquired, double waitSeconds, long timeouts) {
    /** The figures as /pool's fields: dbSize, dbTotal, dbActive, dbIdle, dbPending, dbAcquired, dbWaitSeconds, dbTimeouts. */
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
        return m;
    }
}
