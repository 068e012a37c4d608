package loomylin.server.jetty;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server's pool name, the prefix of its threads' names: {@code KIND-PORT}, or {@code KIND-any-N} for the Nth
 * server of this process asked for port 0 (any free port), so that two such servers' threads never share a
 * name (a dump, a log line or a test can tell whose a thread is).
 */
public final class PoolName {
    private static final AtomicInteger ANY_PORT = new AtomicInteger();

    private PoolName() {
    }

    public static String of(String kind, int port) {
        return port > 0 ? kind + "-" + port : kind + "-any-" + ANY_PORT.incrementAndGet();
    }
}
