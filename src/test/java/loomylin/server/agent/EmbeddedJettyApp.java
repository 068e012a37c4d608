package loomylin.server.agent;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * An application as embedded Jetty 12's users write it, for {@link AgentTest}: {@code new Server(port)} (Jetty's
 * default pool) and one {@link Handler}, knowing nothing of Loomylin. Routes, each answering which thread ran it
 * ({@link AppWork#thread}): {@code /wait?ms=N} blocks reading a socket that answers after N ms
 * ({@link SlowService}), {@code /wait-locked?ms=N} the same inside {@code synchronized} (what pins a virtual thread
 * on JDK 21), {@code /compute?rounds=N} N SHA-256 digests. {@code java -jar app.jar PORT}; port 0 is a free one,
 * printed as {@code listening on port N}.
 */
public final class EmbeddedJettyApp {
    private EmbeddedJettyApp() {
    }

    public static void main(String[] args) throws Exception {
        SlowService downstream = SlowService.start();
        Server server = new Server(args.length > 0 ? Integer.parseInt(args[0]) : 8080);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Fields query = Request.extractQueryParameters(request);
                int ms = AppWork.number(query.getValue("ms"), 50);
                switch (Request.getPathInContext(request)) {
                    case "/wait" -> downstream.call(ms);
                    case "/wait-locked" -> {
                        Object lock = new Object();
                        synchronized (lock) {
                            downstream.call(ms);
                        }
                    }
                    case "/compute" -> AppWork.compute(AppWork.number(query.getValue("rounds"), 10_000));
                    default -> {
                        Response.writeError(request, response, callback, 404);
                        return true;
                    }
                }
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
                Content.Sink.write(response, true, AppWork.thread(), callback);
                return true;
            }
        });
        server.start();
        System.out.println("listening on port " + ((ServerConnector) server.getConnectors()[0]).getLocalPort());
        server.join();
    }
}
