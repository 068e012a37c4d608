package loomylin.server.kotlin

import io.javalin.http.Context
import java.util.concurrent.CompletableFuture
import java.util.concurrent.Executor
import io.vertx.sqlclient.Tuple
import java.sql.SQLException
import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock
import loomylin.server.db.DbFailure
import loomylin.server.db.DbPool
import loomylin.server.db.Items
import loomylin.server.jetty.Admission
import loomylin.server.jetty.ServerOptions
import loomylin.server.web.AsyncWriters
import loomylin.server.web.FileBody
import loomylin.server.web.Limits
import loomylin.server.web.MixedWork
import loomylin.server.web.Params
import loomylin.server.web.PlatformOffload
import loomylin.server.web.Protocol
import loomylin.server.web.SchedulerFigures
import loomylin.server.web.ServerFigures
import loomylin.server.web.Sha256Loop
import org.eclipse.jetty.util.VirtualThreads
import org.eclipse.jetty.util.thread.ThreadPool

/** The handlers behind every route, one method each. */
class Endpoints(
    private val options: ServerOptions,
    private val pool: ThreadPool,
    private val hops: HopClient,
    private val db: DbPool?,
    /** Where /wait-locked?on=platform makes its wait. */
    private val offload: PlatformOffload,
) {
    /** Where /wait-async answers run: the server's request threads (virtual ones where the pool has them). */
    private val answers: Executor = VirtualThreads.getVirtualThreadsExecutor(pool) ?: pool
    private val asyncWriters = AsyncWriters()

    /** CPU work: `iterations` calls to Math.random(). */
    fun computational(ctx: Context) {
        val iterations = Params.integer(ctx.queryParams("iterations"), "iterations", Limits.ITERATIONS_DEFAULT, 0, Limits.ITERATIONS_MAX)
        var sum = 0.0
        repeat(iterations) { sum += Math.random() }
        ctx.result(if (sum >= 0) Protocol.HELLO else "") // uses sum, so the loop is never optimised away
    }

    /** Sleeps on the request thread: what a pool of platform threads is worst at. `ms=0` does not wait at all (no sleep, no yield). */
    fun waitBlocking(ctx: Context) {
        val ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX)
        if (ms > 0) Thread.sleep(ms.toLong())
        ctx.result(Protocol.HELLO)
    }

    /**
     * Waits `ms` on the request thread while holding a lock of its own: inside `synchronized`, under a
     * [ReentrantLock], or in `Object.wait` (which gives the monitor back while it waits). The lock is new per
     * request, so no request ever waits for another; only a virtual thread's carrier pinned by the monitor
     * (JDK 21 and older) can slow it. The lock is kept as a request attribute so that the JIT cannot elide it.
     * `on=platform` makes the same locked wait on one of the server's platform threads ([PlatformOffload])
     * while the request's thread waits for it: a JDK 21 remedy for calls that pin.
     */
    fun waitLocked(ctx: Context) {
        val ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX)
        val kind = Params.choice(ctx.queryParams("lock"), "lock", Limits.LOCK_DEFAULT, Limits.LOCKS)
        val on = Params.choice(ctx.queryParams("on"), "on", Limits.ON_DEFAULT, Limits.ON)
        val lock: Any = if (kind == "reentrant") ReentrantLock() else Any()
        ctx.attribute(LOCK_ATTRIBUTE, lock)
        if (on == "platform") offload.call { lockedWait(kind, lock, ms) } else lockedWait(kind, lock, ms)
        ctx.result(Protocol.HELLO)
    }

    private fun lockedWait(kind: String, lock: Any, ms: Int) {
        when (kind) {
            "synchronized" -> synchronized(lock) { Thread.sleep(ms.toLong()) }
            "reentrant" -> (lock as ReentrantLock).withLock { Thread.sleep(ms.toLong()) }
            else -> {
                val end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms.toLong())
                synchronized(lock) {
                    var left = end - System.nanoTime()
                    while (left > 0) {
                        TimeUnit.NANOSECONDS.timedWait(lock, left)
                        left = end - System.nanoTime()
                    }
                }
            }
        }
    }

    /**
     * Waits without a thread: the JDK's delay scheduler hands the answer to the server's own request threads
     * after `ms`, and Javalin writes it there, as an async Jetty application would.
     */
    fun waitAsync(ctx: Context) {
        val ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX)
        val later = CompletableFuture.delayedExecutor(ms.toLong(), TimeUnit.MILLISECONDS, answers)
        ctx.future {
            CompletableFuture.runAsync({
                asyncWriters.record()
                ctx.result(Protocol.HELLO)
            }, later)
        }
    }

    /** Three backend calls, each waited for on the request thread. */
    fun hopsBlocking(ctx: Context) {
        val delay = delay(ctx)
        ctx.json(hops.meetingsBlocking(token(ctx), delay))
    }

    /** The same three calls as a chain of futures. */
    fun hopsAsync(ctx: Context) {
        val delay = delay(ctx)
        val token = token(ctx)
        ctx.future { hops.meetingsAsync(token, delay).thenAccept { meetings -> ctx.json(meetings) } }
    }

    /**
     * One row read by its key through JDBC on the request thread, with a wait of `ms` on the database server
     * (`pg_sleep`) inside the query: the thread (or virtual thread) and a pooled connection are held for
     * the whole wait. Row `id`, or a random one.
     */
    fun dbBlocking(ctx: Context) {
        val ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX)
        var id = Params.integer(ctx.queryParams("id"), "id", 0, 0, Items.ROWS)
        if (id == 0) id = ThreadLocalRandom.current().nextInt(1, Items.ROWS + 1)
        val db = db ?: throw DbFailure.noDatabase()
        try {
            db.connection().use { c ->
                c.prepareStatement(Items.QUERY).use { q ->
                    q.setDouble(1, ms / 1000.0)
                    q.setInt(2, id)
                    q.executeQuery().use { row ->
                        if (!row.next()) throw DbFailure(502, "database: no row $id in ${Items.TABLE}")
                        ctx.json(linkedMapOf("id" to id, "name" to row.getString(1)))
                    }
                }
            }
        } catch (e: SQLException) {
            throw db.failure(e)
        }
    }

    /**
     * The same read through Vert.x's non-blocking PostgreSQL client: no thread waits while the database works;
     * the answer is written from the client's event loop, as an async Jetty application's would be.
     */
    fun dbAsync(ctx: Context) {
        val ms = Params.integer(ctx.queryParams("ms"), "ms", Limits.MS_DEFAULT, 0, Limits.MS_MAX)
        val asked = Params.integer(ctx.queryParams("id"), "id", 0, 0, Items.ROWS)
        val id = if (asked == 0) ThreadLocalRandom.current().nextInt(1, Items.ROWS + 1) else asked
        val db = db ?: throw DbFailure.noDatabase()
        ctx.future {
            db.async().preparedQuery(Items.ASYNC_QUERY).execute(Tuple.of(ms / 1000.0, id)).toCompletionStage().toCompletableFuture()
                .handle { rows, error ->
                    if (error != null) throw db.failure(error)
                    val row = rows.iterator()
                    if (!row.hasNext()) throw DbFailure(502, "database: no row $id in ${Items.TABLE}")
                    ctx.json(linkedMapOf("id" to id, "name" to row.next().getString(0)))
                }
        }
    }

    /** The seed's request: SHA-256 work, a wait (a sleep, or `calls` backend calls), then the data file's first bytes, all on the request thread. */
    fun mixed(ctx: Context) {
        val work = MixedWork.of(ctx, options.dataFileBytes)
        ctx.header(MixedWork.DIGEST_HEADER, Sha256Loop.run(work.cpu))
        if (work.calls == 0 && work.sleepMs > 0) Thread.sleep(work.sleepMs.toLong()) // sleep=0: no wait at all, not a yield
        else hops.echoBlocking(work)
        FileBody.send(ctx, options.dataFile, work.fileBytes)
    }

    /** The same work holding no request thread while it waits: CPU on the pool, the wait on the timer (or async backend calls), file through an async channel. */
    fun mixedAsync(ctx: Context) {
        val work = MixedWork.of(ctx, options.dataFileBytes)
        ctx.future {
            CompletableFuture.supplyAsync({ Sha256Loop.run(work.cpu) }, pool)
                .thenCompose { digest -> if (work.calls == 0) later(work.sleepMs, digest) else hops.echoAsync(work).thenApply { digest } }
                .thenCompose { digest ->
                    ctx.header(MixedWork.DIGEST_HEADER, digest)
                    FileBody.sendAsync(ctx, options.dataFile, work.fileBytes)
                }
        }
    }

    /** A future completed with `value` after `ms`, on the server's own request threads. */
    private fun <T> later(ms: Int, value: T): CompletableFuture<T> =
        CompletableFuture.supplyAsync({ value }, CompletableFuture.delayedExecutor(ms.toLong(), TimeUnit.MILLISECONDS, answers))

    /** What this server is and how busy it has been; `?reset=true` resets the high-water marks. */
    fun pool(ctx: Context) {
        val reset = Params.bool(ctx.queryParams("reset"), "reset")
        if (reset && pool is LoomThreadPool) pool.resetMax()
        val body = buildMap {
            put("twin", "kotlin")
            put("port", ctx.req().localPort) // the port served, not the Host header's
            put("kind", options.pool.toString())
            putAll(ServerFigures.of(ctx, reset))
            Admission.of(ServerFigures.server(ctx)).ifPresent { putAll(it.fields()) }
            putAll(Pools.figures(pool))
            putAll(SchedulerFigures.read())
            putAll(asyncWriters.figures())
            putAll(offload.figures())
            db?.let { putAll(it.figures().fields()) }
        }
        ctx.json(body)
    }
}


/** The caller's token from `Authorization: Bearer ...`, or a demo token when there is none. */
private fun token(ctx: Context): String {
    val token = Protocol.bearerToken(ctx.header("Authorization"))
    return token.ifEmpty { Protocol.DEFAULT_TOKEN }
}

/** The backend delay to ask for, or null for the backend's default. */
private fun delay(ctx: Context): Int? =
    if (ctx.queryParams("delay").isEmpty()) null else Params.integer(ctx.queryParams("delay"), "delay", 0, 0, Limits.DELAY_MAX)

private const val LOCK_ATTRIBUTE = "loomylin.wait-locked.lock"
