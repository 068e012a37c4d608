package loomylin.jetty.internal;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Jetty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the HTTP/1.1 connections below, which differ from Jetty's only in when they count as idle: a
 * connection that has received a request the server has not started on yet is never closed as idle.
 *
 * <p>Leans on Jetty's unexported {@code org.eclipse.jetty.server.internal.HttpConnection}, and
 * {@link #newConnection} repeats the body of {@code HttpConnectionFactory.newConnection}.
 *
 * <p>Jetty calls a connection idle when nothing moved on it for the idle timeout (30 s by default; 1 s
 * for every connection once a graceful stop begins). On a small pool such as qtp:4 under load, a
 * request can sit unread in the socket, or read but unparsed, while every thread is busy, and for
 * Jetty that connection looked idle and was closed with no answer at all. Here such a connection waits
 * for its thread (it then gets its answer, or the GracefulHandler's 503 during a stop). A connection that sent nothing, or only part of a request, or is idle between
 * keep-alive requests, still goes after the timeout.
 *
 * <p>During a stop, a connection whose request is being handled is not expired either. Jetty ignores
 * the idle timeout of a request that does no I/O, but with one-second checks a request finishing just then
 * can be caught with its response write pending, and cut. Running requests are bounded by the stop timeout
 * (--grace-ms) instead; outside a stop, a request being handled gets Jetty's own treatment (a slow reader
 * still times out).
 */
final class PatientHttpConnectionFactory extends HttpConnectionFactory {
    PatientHttpConnectionFactory(HttpConfiguration config) {
        super(config);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        HttpConnection connection = new PatientHttpConnection(getHttpConfiguration(), connector, endPoint);
        connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
        return configure((AbstractConnection) connection, connector, endPoint);
    }
}

final class PatientHttpConnection extends HttpConnection {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    PatientHttpConnection(HttpConfiguration config, Connector connector, EndPoint endPoint) {
        super(config, connector, endPoint);
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        boolean handling = getHttpChannel().getRequest() != null;
        boolean waitingForAThread = !handling && (!isRequestBufferEmpty() || unreadBytes() > 0);
        boolean stopping = getConnector() instanceof AbstractConnector c && c.isShutdown();
        if (waitingForAThread || (stopping && handling)) return false;
        return super.onIdleExpired(timeout);
    }

    /**
     * Bytes the client sent that nobody has read yet (FIONREAD; nothing is consumed). When the count cannot be
     * read, the first failure is logged as a warning (the protection above is then off for that connection):
     * {@code JettyInternalsTest} checks that it can be read.
     */
    int unreadBytes() {
        try {
            return getEndPoint().getTransport() instanceof SocketChannel channel ? channel.socket().getInputStream().available() : 0;
        } catch (IOException e) {
            return 0; // the connection is closing: nothing waits on it
        } catch (RuntimeException e) {
            if (!WARNED.getAndSet(true))
                LOG.warn("cannot count unread bytes ({}); connections waiting for a thread may be closed as idle. "
                        + "Re-check {} against Jetty {}", e, Connectors.FILES_TO_RECHECK, Jetty.VERSION);
            return 0;
        }
    }
}
