package loomylin.server.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Supplier;
import loomylin.server.admin.PoolWatch;
import loomylin.server.admin.Watched;
import loomylin.server.java.Pools;
import loomylin.server.json.Json;

/**
 * The agent's admin port: {@code GET /metrics} (Loomylin's admin names, {@link PoolWatch}) and {@code GET /pool}
 * (each server's port, pool kind, what it replaced and the pool's own figures as Loomylin's {@code /pool} names
 * them; the JVM's threads, the virtual-thread scheduler and pinned virtual threads). It runs on the JDK's
 * {@link HttpServer} with two daemon platform threads of its own, not on Jetty: it depends on no Jetty version,
 * builds no Jetty server for the agent to swap, and never keeps the application's JVM alive.
 */
final class AgentAdmin {
    static final String METRICS = "/metrics";
    static final String POOL = "/pool";

    private AgentAdmin() {
    }

    /**
     * Starts the port on a daemon thread (its JDK threads inherit that), off the application's constructor, and says
     * its number, or in one line why it has none; the servers run on their new pools either way.
     */
    static void startInBackground(AgentOptions options, Supplier<List<PoolSwap.Swapped>> servers, Consumer<String> say) {
        Thread starter = new Thread(() -> start(options, servers, say), "loomylin-agent-admin-start");
        starter.setDaemon(true);
        starter.start();
    }

    private static void start(AgentOptions options, Supplier<List<PoolSwap.Swapped>> servers, Consumer<String> say) {
        try {
            PoolWatch watch = PoolWatch.start(() -> watched(servers.get()));
            HttpServer http = HttpServer.create(new InetSocketAddress(options.adminHost(), options.adminPort()), 50);
            ExecutorService threads = Executors.newFixedThreadPool(2, task -> {
                Thread t = new Thread(task, "loomylin-agent-admin");
                t.setDaemon(true);
                return t;
            });
            http.setExecutor(threads);
            http.createContext("/", exchange -> answer(exchange, watch, servers));
            http.start();
            say.accept("admin port " + http.getAddress().getPort() + " on " + options.adminHost() + ": " + METRICS + ", " + POOL);
        } catch (IOException | RuntimeException | LinkageError e) {
            say.accept("no admin port " + options.adminPort() + " on " + options.adminHost() + " (" + e + "); the servers run on their new pools without it");
        }
    }

    private static void answer(HttpExchange exchange, PoolWatch watch, Supplier<List<PoolSwap.Swapped>> servers) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!exchange.getRequestMethod().equals("GET")) {
                send(exchange, 405, "text/plain; charset=utf-8", "only GET\n");
            } else if (path.equals(METRICS)) {
                send(exchange, 200, PoolWatch.METRICS_CONTENT_TYPE, watch.metrics());
            } else if (path.equals(POOL)) {
                send(exchange, 200, "application/json", Json.write(pool(watch, servers.get())));
            } else {
                send(exchange, 404, "text/plain; charset=utf-8", "no such path: " + path + " (the agent's admin port has " + METRICS + " and " + POOL + ")\n");
            }
        } catch (RuntimeException e) {
            send(exchange, 500, "text/plain; charset=utf-8", e + "\n");
        }
    }

    /** {@code /pool}: every server's figures under {@code servers}, then the JVM's. */
    static Map<String, Object> pool(PoolWatch watch, List<PoolSwap.Swapped> servers) {
        List<Map<String, Object>> each = new ArrayList<>();
        for (PoolSwap.Swapped s : servers) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("port", s.port());
            f.put("kind", s.kind().toString());
            f.put("replaced", s.replaced());
            f.putAll(Pools.figures(s.pool()));
            each.add(f);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("servers", each);
        body.putAll(watch.jvmFigures());
        return body;
    }

    private static List<Watched> watched(List<PoolSwap.Swapped> servers) {
        return servers.stream().map(s -> new Watched(s.port(), s.kind().toString(), s.server())).toList();
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
