package loomylin.server.java;

import io.javalin.Javalin;
import loomylin.server.db.DbPool;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolName;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.web.ErrorAnswers;
import loomylin.server.web.PlatformOffload;
import loomylin.server.web.Routes;
import loomylin.server.web.ServletConfigPrimer;
import org.eclipse.jetty.util.thread.ThreadPool;

/** One Javalin server on the pool the options name, with every route and the handler behind it. */
public final class AppServer {
    private AppServer() {
    }

    public static Javalin start(ServerOptions options) {
        String name = PoolName.of(options.pool().type().label, options.port());
        ThreadPool pool = Pools.create(options.pool(), name);
        HopClient hops = new HopClient(options);
        DbPool db = options.db() == null ? null : new DbPool(options.db(), "db-" + name);
        PlatformOffload offload = new PlatformOffload(name);
        Endpoints endpoints = new Endpoints(options, pool, hops, db, offload);
        Javalin app = Javalin.create(config -> {
            config.jetty.threadPool = pool;
            JettySetup.apply(config, options);
            if (db != null) config.jetty.modifyServer(server -> server.addBean(db));
            config.jetty.modifyServer(server -> server.addBean(offload));
            ErrorAnswers.apply(config, Routes.listing());
            config.events.serverStopped(hops::close);
            config.events.serverStartFailed(hops::close);
            config.routes.get(Routes.COMPUTATIONAL, endpoints::computational);
            config.routes.get(Routes.WAIT_BLOCKING, endpoints::waitBlocking);
            config.routes.get(Routes.WAIT_ASYNC, endpoints::waitAsync);
            config.routes.get(Routes.WAIT_LOCKED, endpoints::waitLocked);
            config.routes.get(Routes.HOPS_BLOCKING, endpoints::hopsBlocking);
            config.routes.get(Routes.HOPS_ASYNC, endpoints::hopsAsync);
            config.routes.get(Routes.MIXED, endpoints::mixed);
            config.routes.get(Routes.MIXED_ASYNC, endpoints::mixedAsync);
            config.routes.get(Routes.DB_BLOCKING, endpoints::dbBlocking);
            config.routes.get(Routes.DB_ASYNC, endpoints::dbAsync);
            config.routes.get(Routes.POOL, endpoints::pool);
        });
        return ServletConfigPrimer.prime(app.start());
    }
}
