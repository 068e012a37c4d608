package loomylin.server.jetty;

import io.javalin.config.JavalinConfig;
import loomylin.server.jetty.internal.Connectors;
import loomylin.server.json.Json;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.MinimumDataRateHandler;

/**
 * The Jetty settings every Loomylin server shares whatever its pool or twin: one connector with a deep
 * accept queue, an idle timeout and a header deadline ({@code --header-timeout-ms}: 408 and close), a minimum
 * request-body rate ({@code --min-body-rate}), graceful stop, an optional in-flight limit, no version header,
 * one-line plain-text answers for the errors Jetty itself produces, and {@link Json}'s mapper behind {@code ctx.json}.
 *
 * <p>The handler chain, outermost first: {@link RequestCounts} (every answer counted, for the admin port's
 * /metrics), {@link QueryCheck} (400 for a malformed percent-escape),
 * {@link AdmissionLimit} when {@code --max-in-flight} is set (fixed or auto), {@link GracefulHandler}, {@link BodyRate} (Jetty's
 * {@link MinimumDataRateHandler} for requests with a body: one read slower than the rate fails), then the
 * {@link org.eclipse.jetty.server.handler.StatisticsHandler} Javalin puts in front of the app. /pool reads
 * that StatisticsHandler, so its {@code inFlight} counts the requests the limit let through (queued ones
 * are not in flight yet); /pool itself bypasses the limit, so it answers under overload and adds one.
 */
public final class JettySetup {
    private JettySetup() {
    }

    /** One acceptor and one selector per server: the pool threads Jetty's connector keeps for its loops. */
    public static final int ACCEPTORS = 1;
    public static final int SELECTORS = 1;
    public static final int LOOP_THREADS = ACCEPTORS + SELECTORS;

    /**
     * How long a pool that runs requests on virtual threads lets them run once the server's graceful stop has
     * waited its grace ({@code --grace-ms}) for in-flight requests; then it interrupts them.
     */
    public static final int POOL_STOP_TIMEOUT_MS = 100;

    /**
     * The HTTP configuration every Loomylin server shares (and {@code bare-jetty --connector loomylin}): no version
     * headers, and a header cache of {@code headerCacheSize} entries per keep-alive connection ({@code --header-cache}).
     * Jetty gives every keep-alive connection its own cache on its second request, sized for its entries whether
     * they fill or not; with none, well-known header names and values still come from Jetty's static cache.
     */
    public static void http(HttpConfiguration http, int headerCacheSize) {
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setHeaderCacheSize(headerCacheSize);
    }

    public static void apply(JavalinConfig config, ServerOptions options) {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        config.startup.startupWatcherEnabled = false;
        config.jsonMapper(Json.javalin());
        config.jetty.modifyHttpConfiguration(http -> http(http, options.headerCacheSize()));
        config.jetty.addConnector((server, http) -> {
            // One acceptor and one selector on every machine: Jetty's defaults grow with the cores and lease
            // those threads from the pool, which would leave qtp:4 a different number of request threads
            // on every machine (none on 16 cores, where it would not even start).
            ServerConnector connector = Connectors.create(server, SELECTORS, http, options.headerTimeoutMs());
            connector.setHost(options.host());
            connector.setPort(options.port());
            connector.setAcceptQueueSize(options.acceptQueue());
            connector.setIdleTimeout(options.idleTimeoutMs());
            connector.setReuseAddress(true); // a restart right after kill -9 binds at once
            // On stop, idle keep-alive connections are closed after this long; in-flight ones finish first.
            connector.setShutdownIdleTimeout(Math.min(1_000, options.graceMs() / 2));
            return connector;
        });
        config.jetty.modifyServer(server -> {
            // Stop = stop accepting, let in-flight requests finish within the grace, then close.
            server.setStopTimeout(options.graceMs());
            server.setErrorHandler(new OneLineErrorHandler());
            if (options.minBodyRate() > 0) server.insertHandler(new BodyRate(options.minBodyRate()));
            server.insertHandler(new GracefulHandler());
            if (options.maxInFlight().isSet()) server.insertHandler(new AdmissionLimit(options.maxInFlight(), options.maxInFlightWaitMs()));
            server.insertHandler(new QueryCheck());
            server.insertHandler(new RequestCounts());
        });
    }
}
