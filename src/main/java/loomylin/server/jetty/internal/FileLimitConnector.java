package loomylin.server.jetty.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * cannot open a class file either. It logs to the "loomylin" logger, not Jetty's,
 * whose INFO lines are switched off.
 *
 * <p>It has exactly one acceptor, and only that thread touches the burst state and the reserve while the
 * connector runs (the reserve is opened before the acceptor starts and closed after it has stopped), so no
 * lock is held during the blocking accept and reads. The limit is recognised by a probe: opening /dev/null fails
 * too (the JDK's "Too many open files" text is only a fallback, since the C library may translate it).
 *
 * <p>Leans on Jetty: it repeats what {@code ServerConnector}'s private {@code accepted(SocketChannel)} does
 * with a new channel (non-blocking, socket options, hand to the selector manager).
 */
final class FileLimitConnector extends ServerConnector {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin"); // hides AbstractConnector's

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
    private volatile FileChannel reserve;
    private boolean inBurst;
    private long burstStart;
    private long lastFailure;
    private long lastLog;
    private long refused;
    private long backoffMs;

    FileLimitConnector(Server server, int selectors, HttpConnectionFactory factory) {
        super(server, 1, selectors, factory);
    }

    @Override
    protected void doStart() throws Exception {
        reserve = openReserve();
        inBurst = false;
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop(); // closes the accept channel and waits for the acceptor, which may be blocked in acceptOnReserve()
        closeQuietly(reserve);
        reserve = null;
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

    /**
     * True when this accept failed because the process has no file descriptor left: opening /dev/null fails
     * too (whatever the locale of the error text), or the JDK said so in English.
     */
    static boolean tooManyOpenFiles(IOException e) {
        FileChannel probe = openReserve();
        closeQuietly(probe);
        return probe == null || (e.getMessage() != null && e.getMessage().contains("Too many open files"));
    }

    private void accepted() {
        if (!inBurst) return;
        long now = System.nanoTime();
        if (now - lastFailure < QUIET_NANOS) return;
        inBurst = false;
        LOG.info("port {}: accepting connections again; {} were answered 503 at the open-files limit over {} ms",
                getLocalPort(), refused, TimeUnit.NANOSECONDS.toMillis(lastFailure - burstStart));
    }

    private void atLimit() {
        long now = System.nanoTime();
        if (!inBurst) {
            inBurst = true;
            burstStart = now;
            lastLog = now;
            refused = 0;
            LOG.warn("port {}: at the open-files limit (accept: Too many open files); answering new connections 503 "
                    + "until connections close; raise it with ulimit -n", getLocalPort());
        } else if (now - lastLog > REMIND_NANOS) {
            lastLog = now;
            LOG.warn("port {}: still at the open-files limit; {} connections answered 503 so far", getLocalPort(), refused);
        }
        lastFailure = now;
        Outcome outcome = acceptOnReserve();
        if (outcome != Outcome.NOTHING) {
            if (outcome == Outcome.REFUSED) refused++;
            backoffMs = 0;
            return;
        }
        backoffMs = Math.min(500, Math.max(10, backoffMs * 2));
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
