package loomylin;

import io.javalin.config.JavalinConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty settings every Loomylin server shares whatever its pool or twin: one connector with a deep
 * accept queue and an idle timeout, graceful stop, an optional in-flight limit, no version header, and
 * one-line plain-text answers for the errors Jetty itself produces.
 *
 * <p>The handler chain, outermost first: {@link QueryCheck} (400 for a malformed percent-escape),
 * {@link QoSHandler} when {@code --max-in-flight} is set, {@link GracefulHandler}, then the
 * {@link org.eclipse.jetty.server.handler.StatisticsHandler} Javalin puts in front of the app. /pool reads
 * the StatisticsHandler, so its {@code inFlight} counts the requests the limit let through (queued ones
 * are not in flight yet); /pool itself bypasses the limit, so it answers under overload and adds one.
 */
public final class JettySetup {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");

    private JettySetup() {
    }

    /** One acceptor and one selector per server: the pool threads Jetty's connector keeps for its loops. */
    public static final int ACCEPTORS = 1;
    public static final int SELECTORS = 1;
    public static final int LOOP_THREADS = ACCEPTORS + SELECTORS;

    public static void apply(JavalinConfig config, ServerOptions options) {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        config.startup.startupWatcherEnabled = false;
        config.jetty.modifyHttpConfiguration(http -> {
            http.setSendServerVersion(false);
            http.setSendXPoweredBy(false);
            // Jetty gives every keep-alive connection its own header cache on its second request: a trie of
            // about 64 KB of char[] plus nodes for the default 1024 entries. Held by 8000 connections that is
            // over 500 MB; under -Xmx256m scripts/overload.sh's loom scenario died of OutOfMemoryError in
            // its selector threads. Well-known header names and values still come from Jetty's static cache.
            http.setHeaderCacheSize(0);
        });
        config.jetty.addConnector((server, http) -> {
            // One acceptor and one selector on every machine: Jetty's defaults grow with the cores and lease
            // those threads from the pool, which would leave qtp:4 a different number of request threads
            // on every machine (none on 16 cores, where it would not even start).
            ServerConnector connector = new FileLimitConnector(server, ACCEPTORS, SELECTORS, new PatientHttpConnectionFactory(http));
            connector.setHost(options.host);
            connector.setPort(options.port);
            connector.setAcceptQueueSize(options.acceptQueue);
            connector.setIdleTimeout(options.idleTimeoutMs);
            connector.setReuseAddress(true); // a restart right after kill -9 binds at once
            // On stop, idle keep-alive connections are closed after this long; in-flight ones finish first.
            connector.setShutdownIdleTimeout(Math.min(1_000, options.graceMs / 2));
            return connector;
        });
        config.jetty.modifyServer(server -> {
            // Stop = stop accepting, let in-flight requests finish within the grace, then close.
            server.setStopTimeout(options.graceMs);
            server.setErrorHandler(new OneLineErrorHandler());
            server.insertHandler(new GracefulHandler());
            if (options.maxInFlight > 0) server.insertHandler(qos(options));
            server.insertHandler(new QueryCheck());
        });
    }

    private static QoSHandler qos(ServerOptions options) {
        QoSHandler qos = new RetryAfterQoSHandler();
        qos.setMaxRequestCount(options.maxInFlight);
        qos.setMaxSuspend(Duration.ofMillis(Math.max(1, options.maxInFlightWaitMs)));
        // Jetty reads a zero wait as "wait for ever"; --max-in-flight-wait-ms 0 means "refuse at once"
        if (options.maxInFlightWaitMs == 0) qos.setMaxSuspendedRequestCount(0);
        qos.excludePath("/pool"); // the figures must stay readable when the server is at its limit
        return qos;
    }

    /**
     * Jetty's QoSHandler answers 503 when a queued request waited too long (failSuspended) or the queue is
     * full (reject); we add the hint clients need to both.
     */
    static final class RetryAfterQoSHandler extends QoSHandler {
        @Override
        protected void reject(Request request, Response response, Callback callback, int status) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
            super.reject(request, response, callback, status);
        }

        @Override
        protected void failSuspended(Request request, Response response, Callback callback, int status, Throwable failure) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
            super.failSuspended(request, response, callback, status, failure);
        }
    }

    /**
     * Answers 400 when the query string has a '%' not followed by two hex digits. Without this the
     * parameter silently disappears ({@code ?ms=1%} would wait the default 100 ms instead of failing).
     */
    static final class QueryCheck extends Handler.Wrapper {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String query = request.getHttpURI().getQuery();
            int bad = query == null ? -1 : badEscape(query);
            if (bad >= 0) {
                Response.writeError(request, response, callback, HttpStatus.BAD_REQUEST_400,
                        "malformed percent-escape at character " + (bad + 1) + " of the query");
                return true;
            }
            return super.handle(request, response, callback);
        }

        /** Index of the first '%' not followed by two hex digits, or -1. */
        static int badEscape(String query) {
            for (int i = query.indexOf('%'); i >= 0; i = query.indexOf('%', i + 1)) {
                if (i + 2 >= query.length() || Character.digit(query.charAt(i + 1), 16) < 0 || Character.digit(query.charAt(i + 2), 16) < 0)
                    return i;
            }
            return -1;
        }
    }

    /**
     * The errors Jetty answers itself (bad request line, 414, 431, 503 from the in-flight limit or during
     * stop) as one line of plain text like the app's own errors, instead of an HTML page.
     */
    static final class OneLineErrorHandler extends ErrorHandler {
        OneLineErrorHandler() {
            setShowStacks(false);
            setShowCauses(false);
        }

        @Override
        protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback) {
            String reason = HttpStatus.getMessage(code);
            String line = code + " " + reason + (message == null || message.isBlank() || message.equals(reason) ? "" : ": " + printable(message)) + "\n";
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            response.write(true, ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)), callback);
        }

        private static String printable(String s) {
            StringBuilder out = new StringBuilder();
            s.codePoints().limit(200).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
            return out.toString();
        }
    }

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
    static final class PatientHttpConnectionFactory extends HttpConnectionFactory {
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

    static final class PatientHttpConnection extends HttpConnection {
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

    /**
     * A ServerConnector that stays civil at the process's open-files limit. There {@code accept()} fails
     * with "Too many open files" for as long as no connection closes; Jetty's own connector logs a warning
     * with a stack trace and sleeps a second per failure, while the waiting connections hang in the
     * kernel's accept queue. This one keeps one file descriptor in reserve: it gives it up to accept one
     * waiting connection, answers it a complete {@code 503} with {@code Retry-After: 1}, closes it and
     * takes the descriptor back (or, when connections closed meanwhile, serves it as usual). It logs once when a burst starts and once when accepting works again,
     * and when even the reserve is gone it backs off (10 ms doubling to 500 ms) instead of spinning.
     *
     * <p>Everything the refusal path needs is loaded when the connector starts: at the limit the JVM
     * cannot open a class file either. (It logs through {@code JettySetup.LOG}: a bare {@code LOG} here
     * would be Jetty's AbstractConnector logger, whose INFO lines are switched off.)
     */
    static final class FileLimitConnector extends ServerConnector {
        private static final byte[] REFUSAL;
        private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);
        private static final long REMIND_NANOS = TimeUnit.SECONDS.toNanos(60);

        static {
            // Loaded now, with the connector: at the limit no class file can be opened (target/classes in tests).
            if (Outcome.values().length != 3) throw new AssertionError();
            String body = "503 Service Unavailable: server at its open-files limit, retry shortly\n";
            REFUSAL = ("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.US_ASCII);
        }

        private final byte[] scratch = new byte[8192];
        private FileChannel reserve;
        private boolean inBurst;
        private long burstStart;
        private long lastFailure;
        private long lastLog;
        private long refused;
        private long backoffMs;

        FileLimitConnector(Server server, int acceptors, int selectors, HttpConnectionFactory factory) {
            super(server, acceptors, selectors, factory);
        }

        @Override
        protected void doStart() throws Exception {
            super.doStart();
            synchronized (this) {
                reserve = openReserve();
                inBurst = false;
            }
        }

        @Override
        protected void doStop() throws Exception {
            super.doStop(); // closes the accept channel first, which frees an acceptor blocked in refuseOne()
            synchronized (this) {
                closeQuietly(reserve);
                reserve = null;
            }
        }

        @Override
        public void accept(int acceptorID) throws IOException {
            try {
                super.accept(acceptorID);
            } catch (IOException e) {
                if (!isRunning() || !tooManyOpenFiles(e)) throw e;
                atLimit();
                return;
            }
            accepted();
        }

        private static boolean tooManyOpenFiles(IOException e) {
            return e.getMessage() != null && e.getMessage().contains("Too many open files");
        }

        private synchronized void accepted() {
            if (!inBurst) return;
            long now = System.nanoTime();
            if (now - lastFailure < QUIET_NANOS) return;
            inBurst = false;
            JettySetup.LOG.info("port {}: accepting connections again; {} were answered 503 at the open-files limit over {} ms",
                    getLocalPort(), refused, TimeUnit.NANOSECONDS.toMillis(lastFailure - burstStart));
        }

        private void atLimit() {
            long now = System.nanoTime();
            synchronized (this) {
                if (!inBurst) {
                    inBurst = true;
                    burstStart = now;
                    lastLog = now;
                    refused = 0;
                    JettySetup.LOG.warn("port {}: at the open-files limit (accept: Too many open files); answering new connections 503 "
                            + "until connections close; raise it with ulimit -n", getLocalPort());
                } else if (now - lastLog > REMIND_NANOS) {
                    lastLog = now;
                    JettySetup.LOG.warn("port {}: still at the open-files limit; {} connections answered 503 so far", getLocalPort(), refused);
                }
                lastFailure = now;
                Outcome outcome = acceptOnReserve();
                if (outcome != Outcome.NOTHING) {
                    if (outcome == Outcome.REFUSED) refused++;
                    backoffMs = 0;
                    return;
                }
                backoffMs = Math.min(500, Math.max(10, backoffMs * 2));
            }
            try {
                Thread.sleep(backoffMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** What {@link #acceptOnReserve} did with the connection it accepted, if any. */
        private enum Outcome { NOTHING, SERVED, REFUSED }

        /**
         * Spends the reserve descriptor on one waiting connection. If a descriptor can be reserved again
         * with that connection open, the limit has passed (connections closed meanwhile): Jetty serves it
         * as usual. Otherwise it is answered 503 and closed, and the descriptor is taken back.
         */
        private Outcome acceptOnReserve() {
            if (reserve == null) {
                reserve = openReserve();
                return Outcome.NOTHING;
            }
            closeQuietly(reserve);
            reserve = null;
            SocketChannel channel = null;
            try {
                if (!(getTransport() instanceof ServerSocketChannel server) || !server.isOpen()) return Outcome.NOTHING;
                channel = server.accept(); // blocks until one arrives, which is what the acceptor would do anyway
                if (channel == null) return Outcome.NOTHING;
                reserve = openReserve();
                if (reserve != null) {
                    channel.configureBlocking(false); // what ServerConnector.accepted() does
                    configure(channel.socket());
                    getSelectorManager().accept(channel);
                    channel = null;
                    return Outcome.SERVED;
                }
                Socket socket = channel.socket();
                socket.setSoTimeout(100);
                InputStream in = socket.getInputStream();
                readHead(in); // read the request first: closing on unread bytes would send a reset instead
                socket.getOutputStream().write(REFUSAL);
                socket.shutdownOutput();
                socket.setSoTimeout(20);
                drain(in);
                return Outcome.REFUSED;
            } catch (IOException e) {
                return channel != null ? Outcome.REFUSED : Outcome.NOTHING; // a client that left early was still refused
            } finally {
                closeQuietly(channel);
                if (reserve == null) reserve = openReserve();
            }
        }

        private void readHead(InputStream in) {
            int matched = 0;
            int total = 0;
            try {
                while (total < scratch.length) {
                    int n = in.read(scratch, total, scratch.length - total);
                    if (n < 0) return;
                    for (int i = total; i < total + n; i++) {
                        byte b = scratch[i];
                        if (b == '\r') matched = matched == 2 ? 3 : 1;
                        else matched = b == '\n' && (matched == 1 || matched == 3) ? matched + 1 : 0;
                        if (matched == 4) return;
                    }
                    total += n;
                }
            } catch (IOException e) {
                // timed out or gone: answer anyway
            }
        }

        /** Reads what else the client sent (a body, pipelined requests) so the close is a FIN, not a reset. */
        private void drain(InputStream in) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            try {
                while (System.nanoTime() < deadline && in.read(scratch) >= 0) {
                    // discard until the client closes
                }
            } catch (IOException e) {
                // timed out or reset: done
            }
        }

        private static FileChannel openReserve() {
            try {
                return FileChannel.open(Path.of("/dev/null"), StandardOpenOption.READ);
            } catch (IOException | RuntimeException e) {
                return null; // no /dev/null (Windows) or no descriptor left: refuse without a reserve, by backing off
            }
        }

        private static void closeQuietly(java.io.Closeable c) {
            if (c == null) return;
            try {
                c.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}
