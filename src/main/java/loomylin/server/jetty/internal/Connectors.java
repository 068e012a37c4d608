package loomylin.server.jetty.internal;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The door into this package, which holds everything of Loomylin's that leans on Jetty's unexported
 * internals or copies a private method of Jetty's (the one other public class, {@link TaskPermits}, reads a
 * capped VirtualThreadPool's permits; {@link JettyServerHook}, the agent's, advises Server's constructors). What is behind it was read against the Jetty version
 * {@link #CHECKED_JETTY_VERSION}; {@code JettyInternalsTest} fails when the class path carries another one.
 */
public final class Connectors {
    /** The Jetty version whose sources the files of this package were checked against. */
    public static final String CHECKED_JETTY_VERSION = "12.1.14";

    /** The files to re-read against Jetty's sources when the Jetty version changes. */
    public static final String FILES_TO_RECHECK = "loomylin/server/jetty/internal/FileLimitConnector.java (ServerConnector.accepted), "
            + "loomylin/server/jetty/internal/PatientHttpConnectionFactory.java (HttpConnectionFactory.newConnection, internal.HttpConnection: its parser, "
            + "getMessagesIn counted at headerComplete, onFillable), "
            + "loomylin/server/jetty/internal/TaskPermits.java (VirtualThreadPool.doStart, execute: the Semaphore bean), "
            + "loomylin/server/jetty/internal/JettyServerHook.java (Server's constructors: which one the others end in, how it keeps its pool)";

    private Connectors() {
    }

    /**
     * An HTTP/1.1 server connector with one acceptor thread and the given selector threads, that answers 503
     * instead of hanging at the open-files limit, and never closes a connection as idle while its request waits
     * for a thread, and whose requests' headers must be complete within {@code headerTimeoutMs} of their first
     * parsed byte (else 408 and close; 0 = no deadline).
     */
    public static ServerConnector create(Server server, int selectors, HttpConfiguration http, long headerTimeoutMs) {
        return new FileLimitConnector(server, selectors, new PatientHttpConnectionFactory(http, headerTimeoutMs));
    }
}
