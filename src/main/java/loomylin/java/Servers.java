package loomylin.java;

import io.javalin.Javalin;
import loomylin.ErrorAnswers;
import loomylin.JettySetup;
import loomylin.ServerOptions;
import org.eclipse.jetty.util.thread.ThreadPool;

/** One Javalin server on the pool the options name, with every route and the handler behind it. */
public final class Servers {
    public static final String ROUTES = "/computational, /wait-blocking, /wait-async, /hops-blocking, /hops-async, /pool";

    private Servers() {
    }

    public static Javalin start(ServerOptions options) {
        ThreadPool pool = Pools.create(options.pool, options.pool.type().label + "-" + options.port);
        HopClient hops = new HopClient(options);
        Endpoints endpoints = new Endpoints(options, pool, hops);
        Javalin app = Javalin.create(config -> {
            config.jetty.threadPool = pool;
            JettySetup.apply(config, options);
            ErrorAnswers.apply(config, ROUTES);
            config.events.serverStopped(hops::close);
            config.events.serverStartFailed(hops::close);
            config.routes.get("/computational", endpoints::computational);
            config.routes.get("/wait-blocking", endpoints::waitBlocking);
            config.routes.get("/wait-async", endpoints::waitAsync);
            config.routes.get("/hops-blocking", endpoints::hopsBlocking);
            config.routes.get("/hops-async", endpoints::hopsAsync);
            config.routes.get("/pool", endpoints::pool);
        });
        return app.start();
    }
}
