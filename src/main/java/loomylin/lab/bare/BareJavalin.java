package loomylin.lab.bare;

import io.javalin.Javalin;
import loomylin.server.jetty.PoolKind;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * The floor's middle layer: Javalin on one of Loomylin's pools with one route answering every path
 * {@code 200 ok}, as {@link BareJetty}'s handler does, and Javalin's own defaults (its servlet, the handlers it
 * puts in front of it, its HTTP configuration); none of Loomylin's handlers. The connector is {@link BareJetty.Door}'s.
 */
final class BareJavalin {
    private BareJavalin() {
    }

    static Server start(PoolKind kind, BareJetty.Door door) {
        ThreadPool pool = loomylin.server.java.Pools.create(kind, "bare-" + kind.type().label);
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.startup.startupWatcherEnabled = false;
            config.jetty.threadPool = pool;
            config.jetty.addConnector((server, http) -> door.connector(server, http));
            config.routes.get("/", ctx -> ctx.result("ok"));
            config.routes.get("/<path>", ctx -> ctx.result("ok"));
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            app.stop();
            throw BareJetty.failure(door.host(), door.port(), e);
        }
        Server server = app.jettyServer().server();
        server.setStopAtShutdown(true);
        return server;
    }
}
