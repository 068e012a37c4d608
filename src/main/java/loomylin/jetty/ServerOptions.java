package loomylin.jetty;

import java.net.URI;
import java.nio.file.Path;

/** Everything one Loomylin server needs to start, as a plain object; both twins read the same one. */
public final class ServerOptions {
    public String host = "0.0.0.0";
    public int port = 7000;
    public PoolKind pool = PoolKind.loom();
    /** Where the three-hop endpoints call authenticate, authorize and meetings. */
    public URI backend = URI.create("http://localhost:7003");
    /** Kernel accept backlog; Jetty's default of 50 makes cold runs at thousands of connections stall on SYN retries. */
    public int acceptQueue = 4096;
    /** A connection that sends nothing for this long is closed. */
    public int idleTimeoutMs = 30_000;
    /** A request whose headers are not complete this long after its first byte is answered 408 and closed; 0 = no deadline. */
    public int headerTimeoutMs = 5_000;
    /** A request body read slower than this many bytes per second fails (Jetty's MinimumDataRateHandler); 0 = no minimum. */
    public int minBodyRate = 128;
    public int hopConnectTimeoutMs = 2_000;
    public int hopTimeoutMs = 5_000;
    /** The blocking client /hops-blocking waits on. */
    public HopClientKind hopClient = HopClientKind.URL;
    /** On stop, in-flight requests get this long to finish. */
    public int graceMs = 5_000;
    /** Requests handled at once before Jetty's QoSHandler queues the rest; 0 = no limit. */
    public int maxInFlight = 0;
    /** How long a request queued by the limit waits before it gets 503. */
    public int maxInFlightWaitMs = 1_000;
    /** Which twin serves, for logs and /pool. */
    public Twin twin = Twin.JAVA;
    /** The file /mixed and /mixed-async read, made at start-up by whoever starts the servers; its size in bytes. */
    public Path dataFile;
    public int dataFileBytes;

    public ServerOptions copy() {
        ServerOptions o = new ServerOptions();
        o.host = host;
        o.port = port;
        o.pool = pool;
        o.backend = backend;
        o.acceptQueue = acceptQueue;
        o.idleTimeoutMs = idleTimeoutMs;
        o.headerTimeoutMs = headerTimeoutMs;
        o.minBodyRate = minBodyRate;
        o.hopConnectTimeoutMs = hopConnectTimeoutMs;
        o.hopTimeoutMs = hopTimeoutMs;
        o.hopClient = hopClient;
        o.graceMs = graceMs;
        o.maxInFlight = maxInFlight;
        o.maxInFlightWaitMs = maxInFlightWaitMs;
        o.twin = twin;
        o.dataFile = dataFile;
        o.dataFileBytes = dataFileBytes;
        return o;
    }
}
