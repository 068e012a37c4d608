package loomylin.bare;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import loomylin.cli.Flags;
import loomylin.cli.StartupFailure;
import loomylin.jetty.JettySetup;
import loomylin.jetty.PoolKind;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * {@code loomylin bare-jetty}: the floor under a Loomylin server. A Jetty {@link Server} on one of Loomylin's
 * pools with one {@link Handler} that answers every request {@code 200 ok}: no Javalin, no servlet, none of
 * Loomylin's handlers (counts, histogram, statistics, QoS, graceful stop, error pages). The connector keeps
 * Loomylin's one acceptor and one selector, so that a pool leases the same threads as under a Loomylin server,
 * and its accept queue; everything else is Jetty's default. The handler is blocking (Jetty's default
 * invocation type), so every request is dispatched to the pool as Loomylin's are. SIGTERM stops it.
 */
public final class BareJetty {
    private BareJetty() {
    }

    public static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("pool", "KIND", "loom", "the pool: " + PoolKind.HELP),
            new Flags.Flag("host", "ADDRESS", "127.0.0.1", "the address to listen on"),
            new Flags.Flag("port", "PORT", "7000", "the port to listen on"),
            new Flags.Flag("accept-queue", "N", "4096", "the listening socket's accept queue"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    static final byte[] BODY = "ok".getBytes(StandardCharsets.US_ASCII);

    public static void main(String[] args) {
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print("""
                    Usage: java -jar loomylin.jar bare-jetty [flags]

                    A bare Jetty server: one Handler answering 200 "ok" on the pool given, no Javalin and none of
                    Loomylin's handlers. bench --preset floor measures it beside Loomylin's servers.

                    """ + Flags.describe(FLAGS));
            return;
        }
        PoolKind kind = flags.value("pool", PoolKind::parse);
        int port = flags.integer("port", 0, 65_535);
        int acceptQueue = flags.integer("accept-queue", 1, 65_535);
        Server server = start(kind, flags.get("host"), port, acceptQueue);
        System.out.println("bare-jetty: " + kind + " on " + flags.get("host") + ":" + ((ServerConnector) server.getConnectors()[0]).getLocalPort());
        try {
            server.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the server; a port in use (or any start failure) is a one-line StartupFailure. */
    public static Server start(PoolKind kind, String host, int port, int acceptQueue) {
        ThreadPool pool = loomylin.java.Pools.create(kind, "bare-" + kind.type().label);
        Server server = new Server(pool);
        ServerConnector connector = new ServerConnector(server, JettySetup.ACCEPTORS, JettySetup.SELECTORS);
        connector.setHost(host);
        connector.setPort(port);
        connector.setAcceptQueueSize(acceptQueue);
        server.addConnector(connector);
        server.setHandler(new Ok());
        server.setStopAtShutdown(true);
        try {
            server.start();
        } catch (Exception e) {
            try {
                server.stop();
            } catch (Exception ignored) {
                // the start failure is the message
            }
            String why = String.valueOf(e.getMessage());
            for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof java.net.BindException) why = "port already in use";
            throw new StartupFailure("bare-jetty on " + host + ":" + port + ": " + why);
        }
        return server;
    }

    /** 200 "ok", text/plain, with a Content-Length. */
    static final class Ok extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, BODY.length);
            response.write(true, ByteBuffer.wrap(BODY), callback);
            return true;
        }
    }
}
