package loomylin.server.jetty.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.NanoTime;
import org.eclipse.jetty.util.thread.Scheduler;
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
 *
 * <p>The connections also keep a header deadline, which Jetty does not have (its idle timeout restarts with every
 * byte, so headers sent a byte at a time hold a connection for ever): once a request's first bytes are parsed,
 * its headers must be complete within {@code headerTimeoutMs}, else the connection is answered {@code 408} with
 * one line of plain text and closed. The deadline starts when the parser starts on the request, so a request
 * that waits for a thread (unparsed) is not cut by it. It does not cover a connection that sends nothing (the
 * idle timeout does) nor a request body (Jetty's {@code MinimumDataRateHandler} does).
 */
final class PatientHttpConnectionFactory extends HttpConnectionFactory {
    private final long headerTimeoutMs;

    PatientHttpConnectionFactory(HttpConfiguration config, long headerTimeoutMs) {
        super(config);
        this.headerTimeoutMs = headerTimeoutMs;
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        HttpConnection connection = new PatientHttpConnection(getHttpConfiguration(), connector, endPoint, headerTimeoutMs);
        connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
        return configure((AbstractConnection) connection, connector, endPoint);
    }
}

final class PatientHttpConnection extends HttpConnection {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final long headerTimeoutMs;
    /** The count of requests whose headers were complete when the watched request's headers began; -1: none yet. */
    private long watchedRequest = -1;
    private long headersBeganNanos;
    /** The pending deadline check; null when none is pending. Guarded by {@link #lock}, as are the two above. */
    private Scheduler.Task deadline;
    private final Object lock = new Object();

    PatientHttpConnection(HttpConfiguration config, Connector connector, EndPoint endPoint, long headerTimeoutMs) {
        super(config, connector, endPoint);
        this.headerTimeoutMs = headerTimeoutMs;
    }

    @Override
    public void onFillable() {
        super.onFillable();
        if (headerTimeoutMs > 0) watchHeaders();
    }

    @Override
    public void onClose(Throwable cause) {
        synchronized (lock) {
            if (deadline != null) deadline.cancel();
            deadline = null;
        }
        super.onClose(cause);
    }

    /** After bytes were parsed: a request whose headers have begun but are not complete gets its deadline. */
    private void watchHeaders() {
        if (!inHeaders()) return;
        long request = getMessagesIn(); // Jetty counts a request when its headers are complete
        synchronized (lock) {
            if (request == watchedRequest) return;
            watchedRequest = request;
            headersBeganNanos = NanoTime.now();
            if (deadline == null) deadline = schedule(headerTimeoutMs);
        }
    }

    private boolean inHeaders() {
        HttpParser parser = getParser();
        return parser.inHeaderState() && !parser.isStart();
    }

    private Scheduler.Task schedule(long ms) {
        return getConnector().getScheduler().schedule(this::checkDeadline, ms, TimeUnit.MILLISECONDS);
    }

    private void checkDeadline() {
        synchronized (lock) {
            deadline = null;
            // the watched request's headers completed, or the connection moved on: the next request re-arms
            if (getMessagesIn() != watchedRequest || !inHeaders() || !getEndPoint().isOpen()) return;
            long left = headerTimeoutMs - NanoTime.millisSince(headersBeganNanos);
            if (left > 0) {
                deadline = schedule(left);
                return;
            }
        }
        timeOut();
    }

    /** 408 and close; no response can be under way, since this request's headers are not complete. */
    private void timeOut() {
        String line = "408 Request Timeout: request headers not complete within " + headerTimeoutMs + " ms\n";
        String answer = "HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + line.length() + "\r\nConnection: close\r\n\r\n" + line;
        EndPoint endPoint = getEndPoint();
        try {
            endPoint.write(Callback.from(() -> {
                endPoint.shutdownOutput();
                endPoint.close();
            }, failure -> endPoint.close()), ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)));
        } catch (RuntimeException e) {
            endPoint.close(); // a write was pending after all: close without the answer
        }
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
