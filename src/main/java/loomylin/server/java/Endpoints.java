package loomylin.server.java;

import io.javalin.http.Context;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowIterator;
import io.vertx.sqlclient.Tuple;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import loomylin.server.db.DbFailure;
import loomylin.server.db.DbPool;
import loomylin.server.db.Items;
import loomylin.server.jetty.Admission;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.web.AsyncWriters;
import loomylin.server.web.FileBody;
import loomylin.server.web.Limits;
import loomylin.server.web.MixedWork;
import loomylin.server.web.Params;
import loomylin.server.web.PlatformOffload;
import loomylin.server.web.Protocol;
import loomylin.server.web.SchedulerFigures;
import loomylin.server.web.ServerFigures;
import loomylin.server.web.Sha256Loop;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.ThreadPool;

/** The handlers behind every route, one method each. */
public final class Endpoints {
    private static final String LOCK_ATTRIBUTE = "loomylin.wait-locked.lock";
    private final ServerOptions options;
    private final ThreadPool pool;
    private final HopClient hops;
    /** The server's database pool; null without --db or --db-url. */
    private final DbPool db;
    /** Where /wait-async answers run: the server's request threads (virtual ones where the pool has them). */
    private final Executor answers;
    private final AsyncWriters asyncWriters = new AsyncWriters();
    /** Where /wait-locked?on=platform makes its wait. */
    private final PlatformOffload offload;

    public Endpoints(ServerOptions options, ThreadPool pool, HopClient hops, DbPool db, PlatformOffload offload) {
        this.options = options;
        this.pool = pool;
        this.hops = hops;
        this.db = db;
        this.offload = offload;
        Executor virtual = VirtualThreads.getVirtualThreadsExecutor(pool);
        this.answers = virtual != null ? virtual : pool;
    }

    /** CPU work: {@code iterations} calls to Math.random(). */
    public void computational(Context ctx) {
        int iterations = Params.integer(ctx.queryParams("iterations"), "iterations", Limits.ITERATIONS_DEFAULT, 0, Limits.ITERATIONS_MAX);
        double sum = 0;
        for (int i = 0; i < iterations; i++) sum += Math.random();
        ctx.result(sum >= 0 ? Protocol.HELLO : ""); // uses sum, so the loop is never optimised away
    }

    /** Sleeps on the request thread: what a pool of platform threads is worst at. {@code ms=0} does not wait at all (no sleep, no yield). */
    public void waitBlocking(Context ctx) throws InterruptedException {
        int ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX);
        if (ms > 0) Thread.sleep(ms);
        ctx.result(Protocol.HELLO);
    }

    /**
     * Waits {@code ms} on the request thread while holding a lock of its own: inside {@code synchronized}, under a
     * {@link ReentrantLock}, or in {@code Object.wait} (which gives the monitor back while it waits). The lock is
     * new per request, so no request ever waits for another; only a virtual thread's carrier pinned by the monitor
     * (JDK 21 and older) can slow it. The lock is kept as a request attribute so that the JIT cannot elide it.
     * {@code on=platform} makes the same locked wait on one of the server's platform threads ({@link PlatformOffload})
     * while the request's thread waits for it: a JDK 21 remedy for calls that pin.
     */
    public void waitLocked(Context ctx) throws Exception {
        int ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX);
        String kind = Params.choice(ctx.queryParams("lock"), "lock", Limits.LOCK_DEFAULT, Limits.LOCKS);
        String on = Params.choice(ctx.queryParams("on"), "on", Limits.ON_DEFAULT, Limits.ON);
        Object lock = "reentrant".equals(kind) ? new ReentrantLock() : new Object();
        ctx.attribute(LOCK_ATTRIBUTE, lock);
        if ("platform".equals(on)) {
            offload.call(() -> {
                lockedWait(kind, lock, ms);
                return null;
            });
        } else {
            lockedWait(kind, lock, ms);
        }
        ctx.result(Protocol.HELLO);
    }

    private static void lockedWait(String kind, Object lock, int ms) throws InterruptedException {
        switch (kind) {
            case "synchronized" -> {
                synchronized (lock) {
                    Thread.sleep(ms);
                }
            }
            case "reentrant" -> {
                ReentrantLock reentrant = (ReentrantLock) lock;
                reentrant.lock();
                try {
                    Thread.sleep(ms);
                } finally {
                    reentrant.unlock();
                }
            }
            default -> {
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
                synchronized (lock) {
                    for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) TimeUnit.NANOSECONDS.timedWait(lock, left);
                }
            }
        }
    }

    /**
     * Waits without a thread: the JDK's delay scheduler hands the answer to the server's own request threads
     * after {@code ms}, and Javalin writes it there, as an async Jetty application would.
     */
    public void waitAsync(Context ctx) {
        int ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX);
        Executor later = CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS, answers);
        ctx.future(() -> CompletableFuture.runAsync(() -> {
            asyncWriters.record();
            ctx.result(Protocol.HELLO);
        }, later));
    }

    /** Three backend calls, each waited for on the request thread. */
    public void hopsBlocking(Context ctx) {
        Integer delay = delay(ctx);
        ctx.json(hops.meetingsBlocking(token(ctx), delay));
    }

    /** The same three calls as a chain of futures. */
    public void hopsAsync(Context ctx) {
        Integer delay = delay(ctx);
        String token = token(ctx);
        ctx.future(() -> hops.meetingsAsync(token, delay).thenAccept(meetings -> ctx.json(meetings)));
    }

    /**
     * One row read by its key through JDBC on the request thread, with a wait of {@code ms} on the database server
     * ({@code pg_sleep}) inside the query: the thread (or virtual thread) and a pooled connection are held for
     * the whole wait. Row {@code id}, or a random one.
     */
    public void dbBlocking(Context ctx) {
        int ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX);
        int id = Params.integer(ctx.queryParams("id"), "id", 0, 0, Items.ROWS);
        if (id == 0) id = ThreadLocalRandom.current().nextInt(1, Items.ROWS + 1);
        if (db == null) throw DbFailure.noDatabase();
        try (Connection c = db.connection(); PreparedStatement q = c.prepareStatement(Items.QUERY)) {
            q.setDouble(1, ms / 1000.0);
            q.setInt(2, id);
            try (ResultSet row = q.executeQuery()) {
                if (!row.next()) throw new DbFailure(502, "database: no row " + id + " in " + Items.TABLE);
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("id", id);
                body.put("name", row.getString(1));
                ctx.json(body);
            }
        } catch (SQLException e) {
            throw db.failure(e);
        }
    }

    /**
     * The same read through Vert.x's non-blocking PostgreSQL client: no thread waits while the database works;
     * the answer is written from the client's event loop, as an async Jetty application's would be.
     */
    public void dbAsync(Context ctx) {
        int ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX);
        int asked = Params.integer(ctx.queryParams("id"), "id", 0, 0, Items.ROWS);
        int id = asked == 0 ? ThreadLocalRandom.current().nextInt(1, Items.ROWS + 1) : asked;
        if (db == null) throw DbFailure.noDatabase();
        ctx.future(() -> db.async().preparedQuery(Items.ASYNC_QUERY).execute(Tuple.of(ms / 1000.0, id)).toCompletionStage().toCompletableFuture()
                .handle((rows, error) -> {
                    if (error != null) throw db.failure(error);
                    RowIterator<Row> row = rows.iterator();
                    if (!row.hasNext()) throw new DbFailure(502, "database: no row " + id + " in " + Items.TABLE);
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("id", id);
                    body.put("name", row.next().getString(0));
                    ctx.json(body);
                    return null;
                }));
    }

    /** The seed's request: SHA-256 work, a wait (a sleep, or {@code calls} backend calls), then the data file's first bytes, all on the request thread. */
    public void mixed(Context ctx) throws Exception {
        MixedWork work = MixedWork.of(ctx, options.dataFileBytes());
        ctx.header(MixedWork.DIGEST_HEADER, Sha256Loop.run(work.cpu()));
        if (work.calls() == 0 && work.sleepMs() > 0) Thread.sleep(work.sleepMs()); // sleep=0: no wait at all, not a yield
        else hops.echoBlocking(work);
        FileBody.send(ctx, options.dataFile(), work.fileBytes());
    }

    /** The same work holding no request thread while it waits: CPU on the pool, the wait on the timer (or async backend calls), file through an async channel. */
    public void mixedAsync(Context ctx) {
        MixedWork work = MixedWork.of(ctx, options.dataFileBytes());
        ctx.future(() -> CompletableFuture.supplyAsync(() -> Sha256Loop.run(work.cpu()), pool)
                .thenCompose(digest -> work.calls() == 0 ? later(work.sleepMs(), digest) : hops.echoAsync(work).thenApply(done -> digest))
                .thenCompose(digest -> {
                    ctx.header(MixedWork.DIGEST_HEADER, digest);
                    return FileBody.sendAsync(ctx, options.dataFile(), work.fileBytes());
                }));
    }

    /** A future completed with {@code value} after {@code ms}, on the server's own request threads. */
    private <T> CompletableFuture<T> later(int ms, T value) {
        return CompletableFuture.supplyAsync(() -> value, CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS, answers));
    }

    /** What this server is and how busy it has been; {@code ?reset=true} resets the high-water marks. */
    public void pool(Context ctx) {
        boolean reset = Params.bool(ctx.queryParams("reset"), "reset");
        if (reset && pool instanceof LoomThreadPool loom) loom.resetMax();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("twin", "java");
        body.put("port", ctx.req().getLocalPort()); // the port served, not the Host header's
        body.put("kind", options.pool().toString());
        body.putAll(ServerFigures.of(ctx, reset));
        Admission.of(ServerFigures.server(ctx)).ifPresent(a -> body.putAll(a.fields()));
        body.putAll(Pools.figures(pool));
        body.putAll(SchedulerFigures.read());
        body.putAll(asyncWriters.figures());
        body.putAll(offload.figures());
        if (db != null) body.putAll(db.figures().fields());
        ctx.json(body);
    }

    /** The caller's token from {@code Authorization: Bearer ...}, or a demo token when there is none. */
    private static String token(Context ctx) {
        String token = Protocol.bearerToken(ctx.header("Authorization"));
        return token.isEmpty() ? Protocol.DEFAULT_TOKEN : token;
    }

    /** The backend delay to ask for, or null for the backend's default. */
    private static Integer delay(Context ctx) {
        return ctx.queryParams("delay").isEmpty() ? null : Params.integer(ctx.queryParams("delay"), "delay", 0, 0, Limits.DELAY_MAX);
    }
}
