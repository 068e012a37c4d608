package loomylin.jetty.internal;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * Makes the HTTP/1.1 connections below, which differ from Jetty's only in when they count as idle: a
 * connection that has received a request the server has not started on yet is never closed as idle.
 *
 * <p>Jetty calls a connection idle when nothing moved on it for the idle timeout (30 s by default; 1 s
 * for every connection once a graceful stop begins). On a small pool such as qtp:4 under load, a
 * request can sit unread in the socket, or read but unparsed, while every thread is busy, and for
 * Jetty that connection looked idle: it was closed with no answer at all. scripts/overload.sh's qtp4
 * scenario lost 1512 of 2000 requests that way after 30 s, and a SIGTERM dropped the queued ones after
 * 1 s. Now such a connection waits for its thread (it then gets its answer, or the GracefulHandler's
 * 503 during a stop). A connection that sent nothing, or only part of a request, or is idle between
 * keep-alive requests, still goes after the timeout.
 *
 * <p>During a stop, a connection whose request is being handled is not expired either. Jetty ignores
 * the idle timeout of a request that does no I/O, but with one-second checks a few of 1000 requests
 * finishing together were caught with their response write pending, and cut (GracefulStopTest saw 1
 * to 3 per run). Running requests are bounded by the stop timeout (--grace-ms) instead; outside a stop,
 * a request being handled gets Jetty's own treatment (a slow reader still times out).
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

    /** Bytes the client sent that nobody has read yet (FIONREAD; nothing is consumed). */
    private int unreadBytes() {
        try {
            return getEndPoint().getTransport() instanceof SocketChannel channel ? channel.socket().getInputStream().available() : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
