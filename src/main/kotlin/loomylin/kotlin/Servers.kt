package loomylin.kotlin

import io.javalin.Javalin
import loomylin.ErrorAnswers
import loomylin.JettySetup
import loomylin.ServerOptions

/** One Javalin server on the pool the options name, with every route and the handler behind it. */
object Servers {
    const val ROUTES = "/computational, /wait-blocking, /wait-async, /hops-blocking, /hops-async, /pool"

    @JvmStatic
    fun start(options: ServerOptions): Javalin {
        val pool = Pools.create(options.pool, "${options.pool.type().label}-${options.port}")
        val hops = HopClient(options)
        val endpoints = Endpoints(options, pool, hops)
        val app = Javalin.create { config ->
            config.jetty.threadPool = pool
            JettySetup.apply(config, options)
            ErrorAnswers.apply(config, ROUTES)
            config.events.serverStopped(hops::close)
            config.events.serverStartFailed(hops::close)
            config.routes.get("/computational", endpoints::computational)
            config.routes.get("/wait-blocking", endpoints::waitBlocking)
            config.routes.get("/wait-async", endpoints::waitAsync)
            config.routes.get("/hops-blocking", endpoints::hopsBlocking)
            config.routes.get("/hops-async", endpoints::hopsAsync)
            config.routes.get("/pool", endpoints::pool)
        }
        return app.start()
    }
}
