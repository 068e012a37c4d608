package loomylin.server.backend;

import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import loomylin.server.jetty.BoundedStopQueuedThreadPool;
import loomylin.server.jetty.GracefulStop;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolName;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.json.Json;
import loomylin.server.web.BadParameter;
import loomylin.server.web.ErrorAnswers;
import loomylin.server.web.Limits;
import loomylin.server.web.Params;
import loomylin.server.web.Protocol;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The backend the three-hop endpoints call: authenticate (token -> user id), authorize (user id -> authority),
 * meetings (user id + authority -> meetings). Each answers after a delay without holding a thread, so the
 * backend is never what limits a benchmark: its requests and answers run on virtual threads next to a few
 * platform threads ({@link #PLATFORM_THREADS}). It remembers the calls it got, so tests can check the chain.
 * A {@link Fault} makes it misbehave on purpose, for the fault tests and for users who want to see them.
 */
public final class Backend implements AutoCloseable {

    public enum Fault {
        NONE, ERROR, MALFORMED, CLOSE
    }

    /** One call the backend received: which route, for whom, with which credentials. */
    public record Call(String route, String token, String userId, String authority) {
    }

    public static final String ROUTES = "/authenticate, /authorize, /meetings, /echo";
    private static final int CALL_LOG_SIZE = 10_000;
    /**
     * Platform threads of the backend's pool: Jetty's acceptor and selector plus a few spare. Requests and
     * answers run on virtual threads (the pool's unbounded virtual-threads executor), so however many connections
     * call it, the backend adds at most this many platform threads to its JVM (and to every port's
     * jvmPlatformThreads in the default process), and no answer waits for a pool thread.
     */
    public static final int PLATFORM_THREADS = 8;

    /** The routes a fault can be limited to with {@code --fault-at}. */
    public static final List<String> HOPS = List.of("authenticate", "authorize", "meetings");

    private final Javalin app;
    private final int defaultDelayMs;
    private final Fault fault;
    /** The one route that misbehaves, or null for all of them. */
    private final String faultAt;
    /** The last {@link #CALL_LOG_SIZE} calls; lock-free, so that recording never serializes the answers. */
    private final Deque<Call> calls = new ConcurrentLinkedDeque<>();
    private final AtomicInteger callCount = new AtomicInteger();
    private final QueuedThreadPool pool;
    /** Where answers run once their delay is over: the pool's virtual threads. */
    private final Executor answers;

    private Backend(String host, int port, int defaultDelayMs, Fault fault, String faultAt, int graceMs) {
        if (faultAt != null && !HOPS.contains(faultAt)) throw new IllegalArgumentException("no hop " + faultAt);
        this.defaultDelayMs = defaultDelayMs;
        this.fault = fault;
        this.faultAt = faultAt;
        ServerOptions options = ServerOptions.DEFAULTS.withHost(host).withPort(port).withGraceMs(graceMs);
        // once the grace is over, its stop interrupts what still runs within 100 ms, as the servers' pools do
        this.pool = new BoundedStopQueuedThreadPool(PLATFORM_THREADS, PoolName.of("backend", port));
        pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor(pool.getName() + "-vt-"));
        this.answers = VirtualThreads.getVirtualThreadsExecutor(pool);
        this.app = Javalin.create(config -> {
            config.jetty.threadPool = pool;
            JettySetup.apply(config, options);
            ErrorAnswers.apply(config, ROUTES);
            config.routes.get("/authenticate", this::authenticate);
            config.routes.get("/authorize", this::authorize);
            config.routes.get("/meetings", this::meetings);
            config.routes.get("/echo", this::echo);
        });
    }

    public static Backend start(String host, int port, int defaultDelayMs, Fault fault) {
        return start(host, port, defaultDelayMs, fault, null);
    }

    /** As {@link #start(String, int, int, Fault)}, the fault limited to one route of {@link #HOPS} (null: all). */
    public static Backend start(String host, int port, int defaultDelayMs, Fault fault, String faultAt) {
        return start(host, port, defaultDelayMs, fault, faultAt, ServerOptions.DEFAULTS.graceMs());
    }

    /**
     * As {@link #start(String, int, int, Fault, String)}; on stop, requests in flight get {@code graceMs} to finish and
     * idle keep-alive connections are closed after half of it (at most 1 s), as on the servers. 0 waits for nothing:
     * the embedded backend stops after every server, when no request can need it any more.
     */
    public static Backend start(String host, int port, int defaultDelayMs, Fault fault, String faultAt, int graceMs) {
        Backend backend = new Backend(host, port, defaultDelayMs, fault, faultAt, graceMs);
        backend.app.start();
        return backend;
    }

    public int port() {
        return app.port();
    }

    /** The backend's Jetty server, for the admin port's thread count. */
    public Server jettyServer() {
        return app.jettyServer().server();
    }

    /**
     * Stops as a server does ({@link GracefulStop}): in-flight requests get the grace; a cut-off surfaces as an
     * exception whose root cause is a {@link java.util.concurrent.TimeoutException}, without Javalin's error log.
     */
    @Override
    public void close() {
        try {
            GracefulStop.stop(app);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("backend stop: " + e, e);
        }
    }

    /** The calls received so far, oldest first (the last 10,000). */
    public List<Call> calls() {
        return new ArrayList<>(calls);
    }

    public void clearCalls() {
        for (Call c = calls.pollFirst(); c != null; c = calls.pollFirst()) callCount.decrementAndGet();
    }

    /** The platform threads the backend's pool holds now (its requests run on virtual threads). */
    public int platformThreads() {
        return pool.getThreads();
    }

    private void record(Call call) {
        calls.addLast(call);
        if (callCount.incrementAndGet() > CALL_LOG_SIZE && calls.pollFirst() != null) callCount.decrementAndGet();
    }

    private void authenticate(Context ctx) {
        String token = Protocol.bearerToken(ctx.header("Authorization"));
        if (token.isEmpty()) {
            ErrorAnswers.answer(ctx, 401, "authenticate needs an Authorization header with a token");
            return;
        }
        record(new Call("authenticate", token, null, null));
        String userId = "user-" + Integer.toHexString(token.hashCode());
        answerLater(ctx, "authenticate", new Answers.User(userId));
    }

    private void authorize(Context ctx) {
        String userId = required(ctx, "userId");
        record(new Call("authorize", null, userId, null));
        answerLater(ctx, "authorize", new Answers.Authority(Protocol.AUTHORITY, userId));
    }

    private void meetings(Context ctx) {
        String userId = required(ctx, "userId");
        String authority = ctx.header(Protocol.AUTHORITY_HEADER);
        record(new Call("meetings", null, userId, authority));
        if (!Protocol.AUTHORITY.equals(authority)) {
            ErrorAnswers.answer(ctx, 403, "meetings needs the " + Protocol.AUTHORITY_HEADER + ": " + Protocol.AUTHORITY + " header");
            return;
        }
        answerLater(ctx, "meetings", new Answers.Meetings(List.of(
                new Answers.Meeting(1, "09:00", "Stand-up"),
                new Answers.Meeting(2, "14:00", "Loom review")), userId));
    }

    /** {@code /echo}'s defaults: the echo seed's 1 s latency and 32-byte messages. */
    static final int ECHO_DELAY_DEFAULT = 1_000;
    static final int ECHO_BYTES_DEFAULT = 32;
    static final int ECHO_BYTES_MAX = 1 << 20;

    /**
     * {@code GET /echo?delay=MS&bytes=N}: N bytes of text after MS milliseconds (default 1000 ms, 32 bytes),
     * answered after the delay without holding a thread while it waits, so a held connection costs none. The target of {@code clients}.
     */
    private void echo(Context ctx) {
        int delay = Params.integer(ctx.queryParams("delay"), "delay", ECHO_DELAY_DEFAULT, 0, Limits.DELAY_MAX);
        int bytes = Params.integer(ctx.queryParams("bytes"), "bytes", ECHO_BYTES_DEFAULT, 0, ECHO_BYTES_MAX);
        record(new Call("echo", null, null, null));
        Executor later = CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS, answers);
        ctx.future(() -> CompletableFuture.runAsync(() -> ctx.contentType("text/plain").result("x".repeat(bytes)), later));
    }

    private static String required(Context ctx, String name) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) throw new BadParameter(name + " is required");
        return value;
    }

    /**
     * Answers after the delay without a thread waiting: the JDK's delay scheduler only hands the answer to a
     * virtual thread of the backend's pool, which writes it.
     */
    private void answerLater(Context ctx, String route, Record body) {
        int delay = Params.integer(ctx.queryParams("delay"), "delay", defaultDelayMs, 0, Limits.DELAY_MAX);
        Executor later = CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS, answers);
        ctx.future(() -> CompletableFuture.runAsync(() -> misbehaveOrAnswer(ctx, route, body), later));
    }

    private void misbehaveOrAnswer(Context ctx, String route, Record body) {
        Fault now = faultAt == null || faultAt.equals(route) ? fault : Fault.NONE;
        switch (now) {
            case NONE -> ctx.json(body);
            case ERROR -> ErrorAnswers.answer(ctx, 500, "backend fault injected: error");
            case MALFORMED -> ctx.contentType("application/json").result(half(Json.write(body)));
            case CLOSE -> closeMidResponse(ctx, Json.write(body));
        }
    }

    /**
     * Promises the whole body, sends half of it, then closes the connection under Jetty's feet. It closes
     * the socket (the EndPoint) rather than aborting the request: an aborted request is recycled while
     * Javalin still holds it, and Javalin's error handling then loops on the answering thread, which froze
     * every backend in the JVM and wrote gigabytes of log.
     */
    /** The first half of {@code json}: never one complete JSON value. */
    private static String half(String json) {
        return json.substring(0, json.length() / 2);
    }

    private static void closeMidResponse(Context ctx, String json) {
        try {
            ctx.res().setContentLength(json.length());
            ctx.res().getOutputStream().write(half(json).getBytes());
            ctx.res().flushBuffer();
        } catch (java.io.IOException ignored) {
            // the client went away first; the close below is then a no-op
        }
        org.eclipse.jetty.ee10.servlet.ServletContextRequest.getServletContextRequest(ctx.req())
                .getConnectionMetaData().getConnection().getEndPoint().close();
    }
}
