package loomylin.admin;

import io.javalin.Javalin;
import loomylin.jetty.JettySetup;
import loomylin.jetty.ServerOptions;
import loomylin.web.ErrorAnswers;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The admin port (default 7004): {@code GET /metrics} in the Prometheus text format, and the live view.
 * It runs on its own small pool of platform threads, so it answers while a server's pool is saturated.
 * It only reads, except a race, which only loopback clients may start.
 */
public final class AdminServer implements AutoCloseable {
    /** Platform threads of the admin port's pool; Jetty's acceptor and selector hold two of them. */
    public static final int THREADS = 8;

    public static final String METRICS = "/metrics";

    private final Javalin app;

    private AdminServer(Javalin app) {
        this.app = app;
    }

    public static AdminServer start(AdminOptions options) {
        QueuedThreadPool pool = new QueuedThreadPool(THREADS, 3);
        pool.setName("admin");
        VirtualThreadScheduler scheduler = new VirtualThreadScheduler();
        ThreadOwners owners = new ThreadOwners(options.servers,
                options.backend == null ? null : options.backend.getThreadPool(), pool, scheduler);
        Metrics metrics = new Metrics(options.servers, owners, scheduler);
        ServerOptions jetty = new ServerOptions();
        jetty.host = options.host;
        jetty.port = options.port;
        jetty.graceMs = 500;
        Javalin app = Javalin.create(config -> {
            config.jetty.threadPool = pool;
            JettySetup.apply(config, jetty);
            ErrorAnswers.apply(config, METRICS);
            config.routes.get(METRICS, ctx -> ctx.contentType(Metrics.CONTENT_TYPE).result(metrics.scrape()));
        });
        return new AdminServer(app.start());
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
