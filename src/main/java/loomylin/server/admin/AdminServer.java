package loomylin.server.admin;

import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.web.ErrorAnswers;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The admin port (default 7004), on its own small pool of platform threads so that it answers while a
 * server's pool is saturated. It only reads, except a race, which only Loomylin's own page may start, from
 * loopback or an address {@code --race-from} allows ({@link RaceAccess}); the live figures answer only to a Host
 * this port is reached by (DNS rebinding).
 * <ul>
 *   <li>{@code GET /metrics}: the Prometheus text format ({@link Metrics})</li>
 *   <li>{@code GET /}: the live view, one page from the class path; chart.js from its webjar</li>
 *   <li>{@code GET /live}: what the page polls: every server's figures ({@link LiveFigures}) and the race</li>
 *   <li>{@code POST /race}, {@code POST /race/stop}, {@code GET /race}: the race ({@link Races})</li>
 * </ul>
 */
public final class AdminServer implements AutoCloseable {
    /** Platform threads of the admin port's pool; Jetty's acceptor and selector hold two of them. */
    public static final int THREADS = 8;

    public static final String METRICS = "/metrics";
    public static final String LIVE = "/live";
    public static final String RACE = "/race";
    public static final String RACE_STOP = "/race/stop";
    static final String ROUTES = "/, " + METRICS + ", " + LIVE + ", " + RACE + ", " + RACE_STOP;

    private final Javalin app;
    private final LiveFigures live;
    private final Races races;
    private final PinnedThreads pins;

    private AdminServer(Javalin app, LiveFigures live, Races races, PinnedThreads pins) {
        this.app = app;
        this.live = live;
        this.races = races;
        this.pins = pins;
    }

    public static AdminServer start(AdminOptions options) {
        QueuedThreadPool pool = new QueuedThreadPool(THREADS, 3);
        pool.setName("admin");
        VirtualThreadScheduler scheduler = new VirtualThreadScheduler();
        ThreadOwners owners = new ThreadOwners(options.servers(),
                options.backend() == null ? null : options.backend().getThreadPool(), pool, scheduler);
        PinnedThreads pins = PinnedThreads.start();
        Metrics metrics = new Metrics(options.servers(), owners, scheduler, pins);
        LiveFigures live = new LiveFigures(options.servers(), owners, scheduler, pins);
        RaceAccess access = new RaceAccess(RaceAccess.parseFrom(options.raceFrom()), RaceAccess.parseHosts(options.adminHosts()));
        Races races = new Races(options.servers(), options.reachHost(), access);
        String page = resource("/loomylin/live/index.html");
        ServerOptions jetty = ServerOptions.DEFAULTS.withHost(options.host()).withPort(options.port()).withGraceMs(500)
                .withHeaderTimeoutMs(options.headerTimeoutMs()).withMinBodyRate(options.minBodyRate());
        Javalin app = Javalin.create(config -> {
            config.jetty.threadPool = pool;
            JettySetup.apply(config, jetty);
            ErrorAnswers.apply(config, ROUTES);
            config.staticFiles.enableWebjars();
            config.staticFiles.add(files -> {
                files.hostedPath = "/static";
                files.directory = "/loomylin/live";
                files.location = Location.CLASSPATH;
            });
            config.routes.get("/", ctx -> ctx.html(page));
            config.routes.get(METRICS, ctx -> ctx.contentType(Metrics.CONTENT_TYPE).result(metrics.scrape()));
            config.routes.get(LIVE, ctx -> {
                if (!access.mayRead(ctx)) return;
                Map<String, Object> figures = live.read();
                figures.put("race", races.describe().orElse(null));
                ctx.json(figures);
            });
            config.routes.get(RACE, ctx -> {
                if (access.mayRead(ctx)) ctx.json(races.describe());
            });
            config.routes.post(RACE, races::start);
            config.routes.post(RACE_STOP, races::stop);
        });
        try {
            return new AdminServer(app.start(), live, races, pins);
        } catch (RuntimeException e) {
            live.close();
            pins.close();
            throw e;
        }
    }

    /**
     * Checks {@code --race-from} and {@code --admin-hosts} as {@link #start} will read them; a mistake is an
     * {@link IllegalArgumentException} with one line.
     */
    public static void checkAccess(String raceFrom, String adminHosts) {
        RaceAccess.parseFrom(raceFrom);
        RaceAccess.parseHosts(adminHosts);
    }

    private static String resource(String path) {
        try (InputStream in = AdminServer.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing resource " + path);
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        races.close();
        live.close();
        pins.close();
        app.stop();
    }
}
