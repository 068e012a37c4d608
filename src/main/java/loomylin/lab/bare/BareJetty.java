package loomylin.lab.bare;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.jetty.internal.Connectors;
import loomylin.server.jetty.PoolKind;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
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
 * invocation type), so every request is dispatched to the pool as Loomylin's are. With
 * {@code --framework javalin} the same answer comes from a Javalin route instead ({@link BareJavalin}): Javalin
 * with its own defaults, still none of Loomylin's handlers. SIGTERM stops it.
 */
public final class BareJetty {
    private BareJetty() {
    }

    public static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("pool", "KIND", "loom", "the pool: " + PoolKind.HELP),
            new Flags.Flag("host", "ADDRESS", "127.0.0.1", "the address to listen on"),
            new Flags.Flag("port", "PORT", "7000", "the port to listen on"),
            new Flags.Flag("accept-queue", "N", "4096", "the listening socket's accept queue"),
            new Flags.Flag("framework", "none|javalin", "none", "none: a Jetty Handler answers; javalin: a Javalin route answers (Javalin's defaults, no Loomylin handler)"),
            new Flags.Flag("connector", "jetty|loomylin", "jetty", "jetty: Jetty's connector and HTTP configuration; loomylin: a Loomylin server's (the open-files 503, the patient connection"
                    + " with its 5 s header deadline, no version header, the header cache of --header-cache)"),
            new Flags.Flag("header-cache", "N", "0", "with --connector loomylin: entries in each connection's header cache, as a Loomylin server's flag"),
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
        Options o = Options.of(flags);
        Server server = o.javalin() ? BareJavalin.start(o.pool(), o.door()) : start(o.pool(), o.door());
        System.out.println("bare-jetty: " + o.pool() + (o.javalin() ? " with Javalin" : "") + (o.door().loomylin() ? ", Loomylin's connector," : "")
                + " on " + o.door().host() + ":" + ((ServerConnector) server.getConnectors()[0]).getLocalPort());
        try {
            server.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The command's flags, read once: the pool, whether a Javalin route answers, and where and how it listens. */
    record Options(PoolKind pool, boolean javalin, Door door) {
        static Options of(Flags flags) {
            PoolKind kind = flags.value("pool", PoolKind::parse);
            int port = flags.integer("port", 0, 65_535);
            int acceptQueue = flags.integer("accept-queue", 1, 65_535);
            String framework = flags.get("framework").trim();
            if (!framework.equals("none") && !framework.equals("javalin"))
                throw new loomylin.server.cli.UsageError("--framework must be none or javalin, got '" + loomylin.server.web.Params.printable(framework) + "'");
            String connector = flags.get("connector").trim();
            if (!connector.equals("jetty") && !connector.equals("loomylin"))
                throw new loomylin.server.cli.UsageError("--connector must be jetty or loomylin, got '" + loomylin.server.web.Params.printable(connector) + "'");
            return new Options(kind, framework.equals("javalin"),
                    new Door(flags.get("host"), port, acceptQueue, connector.equals("loomylin"), flags.integer("header-cache", 0, 65_536)));
        }
    }

    /** A start failure as one line: "port already in use" when the port is taken. */
    static StartupFailure failure(String host, int port, Exception e) {
        String why = String.valueOf(e.getMessage());
        for (Throwable t = e; t != null; t = t.getCause()) if (t instanceof java.net.BindException) why = "port already in use";
        return new StartupFailure("bare-jetty on " + host + ":" + port + ": " + why);
    }

    /**
     * Where and how a bare server listens: Loomylin's one acceptor and one selector and the accept queue given, with
     * Jetty's own connector and HTTP configuration, or ({@code loomylin}) a Loomylin server's: {@link Connectors#create}
     * with the default header deadline and {@link JettySetup#http}'s configuration with {@code headerCacheSize}.
     */
    public record Door(String host, int port, int acceptQueue, boolean loomylin, int headerCacheSize) {
        /** Jetty's connector and configuration. */
        public static Door jetty(String host, int port, int acceptQueue) {
            return new Door(host, port, acceptQueue, false, 0);
        }

        ServerConnector connector(Server server, HttpConfiguration http) {
            ServerConnector connector;
            if (loomylin) {
                JettySetup.http(http, headerCacheSize);
                connector = Connectors.create(server, JettySetup.SELECTORS, http, ServerOptions.DEFAULTS.headerTimeoutMs());
            } else {
                connector = new ServerConnector(server, JettySetup.ACCEPTORS, JettySetup.SELECTORS, new HttpConnectionFactory(http));
            }
            connector.setHost(host);
            connector.setPort(port);
            connector.setAcceptQueueSize(acceptQueue);
            return connector;
        }
    }

    /** Starts the server; a port in use (or any start failure) is a one-line StartupFailure. */
    public static Server start(PoolKind kind, Door door) {
        String host = door.host();
        int port = door.port();
        ThreadPool pool = loomylin.server.java.Pools.create(kind, "bare-" + kind.type().label);
        Server server = new Server(pool);
        server.addConnector(door.connector(server, new HttpConfiguration()));
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
            throw failure(host, port, e);
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
