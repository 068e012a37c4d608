package loomylin.server.web;

import io.javalin.http.Context;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.MinimumDataRateHandler;
import org.eclipse.jetty.server.handler.StatisticsHandler;

/**
 * The server-wide half of /pool, the same for every pool and twin: requests in flight (read from the
 * StatisticsHandler Javalin puts in front of the app) and the JVM's platform thread count.
 */
public final class ServerFigures {
    private ServerFigures() {
    }

    /** The StatisticsHandler Javalin puts in front of the app: not the body-rate one, which counts requests with a body only. */
    static StatisticsHandler javalins(Server server) {
        return server.getDescendants(StatisticsHandler.class).stream().filter(h -> !(h instanceof MinimumDataRateHandler)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no StatisticsHandler in the server's chain"));
    }

    /** The Jetty server that serves {@code ctx}. */
    public static Server server(Context ctx) {
        return ServletContextHandler.getServletContextHandler(ctx.req().getServletContext()).getServer();
    }

    /**
     * {@code inFlight}: requests between arrival at the app and their response, async waits included.
     * {@code handling}: of those, how many hold a thread in a handler right now. Both with their
     * high-water marks, which {@code reset} brings down to the current value.
     */
    public static Map<String, Object> of(Context ctx, boolean reset) {
        StatisticsHandler stats = javalins(server(ctx));
        if (reset) stats.reset();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("inFlight", stats.getRequestsActive());
        f.put("maxInFlight", stats.getRequestsActiveMax());
        f.put("handling", stats.getHandleActive());
        f.put("maxHandling", stats.getHandleActiveMax());
        f.put("requests", stats.getRequests());
        f.put("responses5xx", stats.getResponses5xx());
        f.put("jvmPlatformThreads", ManagementFactory.getThreadMXBean().getThreadCount());
        f.put("jvmPeakPlatformThreads", ManagementFactory.getThreadMXBean().getPeakThreadCount());
        return f;
    }
}
