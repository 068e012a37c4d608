package loomylin.server.jetty;

import java.net.URI;
import java.nio.file.Path;
import loomylin.server.db.DbOptions;

/**
 * Everything one Loomylin server needs to start, as asked: an immutable value both twins read. What a server
 * was bound to (its real port, with {@code port} 0) is the started server's, never written back here.
 *
 * @param host the address to listen on
 * @param port the port to listen on; 0 = a free one
 * @param pool the thread pool the server runs on
 * @param backend Where the three-hop endpoints call authenticate, authorize and meetings.
 * @param acceptQueue Kernel accept backlog; Jetty's default of 50 makes cold runs at thousands of connections stall on SYN retries.
 * @param idleTimeoutMs A connection that sends nothing for this long is closed.
 * @param headerTimeoutMs A request whose headers are not complete this long after its first byte is answered 408 and closed; 0 = no deadline.
 * @param minBodyRate A request body read slower than this many bytes per second fails (Jetty's MinimumDataRateHandler); 0 = no minimum.
 * @param hopConnectTimeoutMs how long a backend call may take to connect
 * @param hopTimeoutMs how long a backend call may take in all
 * @param hopClient The blocking client /hops-blocking waits on.
 * @param graceMs On stop, in-flight requests get this long to finish.
 * @param maxInFlight Requests handled at once before {@link AdmissionLimit} queues the rest: fixed, auto, or {@link MaxInFlight#NONE}.
 * @param maxInFlightWaitMs How long a request queued by the limit waits before it gets 503.
 * @param twin Which twin serves, for logs and /pool.
 * @param dataFile The file /mixed and /mixed-async read, made at start-up by whoever starts the servers.
 * @param dataFileBytes The data file's size in bytes.
 * @param db The database /db-blocking reads through a pool of its own; null = none ({@code --db}, {@code --db-url}).
 * @param headerCacheSize Entries in each keep-alive connection's header cache (Jetty's {@code HttpConfiguration.setHeaderCacheSize});
 *                        0 = none: every header name and value not in Jetty's static cache is parsed into new strings.
 */
public record ServerOptions(String host, int port, PoolKind pool, URI backend, int acceptQueue, int idleTimeoutMs, int headerTimeoutMs, int minBodyRate, int hopConnectTimeoutMs, int hopTimeoutMs, HopClientKind hopClient, int graceMs, MaxInFlight maxInFlight, int maxInFlightWaitMs, Twin twin, Path dataFile, int dataFileBytes, DbOptions db, int headerCacheSize) {

    /** Jetty's own default size of a connection's header cache ({@code HttpConfiguration}'s). */
    public static final int JETTY_HEADER_CACHE = 1024;

    /** The defaults: every server port's, before flags. */
    public static final ServerOptions DEFAULTS = new ServerOptions("0.0.0.0", 7000, PoolKind.loom(), URI.create("http://localhost:7003"), 4096, 30_000, 5_000, 128, 2_000, 5_000, HopClientKind.URL, 5_000, MaxInFlight.NONE, 1_000, Twin.JAVA, null, 0, null, 0);

    public ServerOptions withHost(String value) {
        return new ServerOptions(value, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withPort(int value) {
        return new ServerOptions(host, value, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withPool(PoolKind value) {
        return new ServerOptions(host, port, value, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withBackend(URI value) {
        return new ServerOptions(host, port, pool, value, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withAcceptQueue(int value) {
        return new ServerOptions(host, port, pool, backend, value, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withIdleTimeoutMs(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, value, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withHeaderTimeoutMs(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, value, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withMinBodyRate(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, value, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withHopConnectTimeoutMs(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, value, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withHopTimeoutMs(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, value, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withHopClient(HopClientKind value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, value, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withGraceMs(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, value, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    /** A fixed limit of {@code value} requests; 0 = none. */
    public ServerOptions withMaxInFlight(int value) {
        return withMaxInFlight(value == 0 ? MaxInFlight.NONE : MaxInFlight.fixed(value));
    }

    public ServerOptions withMaxInFlight(MaxInFlight value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, value, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withMaxInFlightWaitMs(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, value, twin, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withTwin(Twin value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, value, dataFile, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withDataFile(Path value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, value, dataFileBytes, db, headerCacheSize);
    }

    public ServerOptions withDataFileBytes(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, value, db, headerCacheSize);
    }

    public ServerOptions withDb(DbOptions value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, value, headerCacheSize);
    }

    public ServerOptions withHeaderCacheSize(int value) {
        return new ServerOptions(host, port, pool, backend, acceptQueue, idleTimeoutMs, headerTimeoutMs, minBodyRate, hopConnectTimeoutMs, hopTimeoutMs, hopClient, graceMs, maxInFlight, maxInFlightWaitMs, twin, dataFile, dataFileBytes, db, value);
    }
}
