package loomylin;

import io.javalin.config.JavalinConfig;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The Jetty settings every Loomylin server shares whatever its pool or twin: one connector with a deep
 * accept queue and an idle timeout, graceful stop, an optional in-flight limit, no version header.
 * Javalin already puts a {@link org.eclipse.jetty.server.handler.StatisticsHandler} in front of the app;
 * /pool reads its figures.
 */
public final class JettySetup {
    private JettySetup() {
    }

    /** One acceptor and one selector per server: the pool threads Jetty's connector keeps for its loops. */
    public static final int ACCEPTORS = 1;
    public static final int SELECTORS = 1;
    public static final int LOOP_THREADS = ACCEPTORS + SELECTORS;

    public static void apply(JavalinConfig config, ServerOptions options) {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        config.startup.startupWatcherEnabled = false;
        config.jetty.modifyHttpConfiguration(http -> {
            http.setSendServerVersion(false);
            http.setSendXPoweredBy(false);
        });
        config.jetty.addConnector((server, http) -> {
            // One acceptor and one selector on every machine: Jetty's defaults grow with the cores and lease
            // those threads from the pool, which would leave qtp:4 a different number of request threads
            // on every machine (none on 16 cores, where it would not even start).
            ServerConnector connector = new ServerConnector(server, ACCEPTORS, SELECTORS, new HttpConnectionFactory(http));
            connector.setHost(options.host);
            connector.setPort(options.port);
            connector.setAcceptQueueSize(options.acceptQueue);
            connector.setIdleTimeout(options.idleTimeoutMs);
            connector.setReuseAddress(true); // a restart right after kill -9 binds at once
            // On stop, idle keep-alive connections are closed after this long; in-flight ones finish first.
            connector.setShutdownIdleTimeout(Math.min(1_000, options.graceMs / 2));
            return connector;
        });
        config.jetty.modifyServer(server -> {
            // Stop = stop accepting, let in-flight requests finish within the grace, then close.
            server.setStopTimeout(options.graceMs);
            server.insertHandler(new GracefulHandler());
            if (options.maxInFlight > 0) server.insertHandler(qos(options));
        });
    }

    private static QoSHandler qos(ServerOptions options) {
        QoSHandler qos = new RetryAfterQoSHandler();
        qos.setMaxRequestCount(options.maxInFlight);
        qos.setMaxSuspend(Duration.ofMillis(options.maxInFlightWaitMs));
        return qos;
    }

    /** Jetty's QoSHandler answers 503 when a queued request waited too long; we add the hint clients need. */
    static final class RetryAfterQoSHandler extends QoSHandler {
        @Override
        protected void reject(Request request, Response response, Callback callback, int status) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
            super.reject(request, response, callback, status);
        }
    }
}
