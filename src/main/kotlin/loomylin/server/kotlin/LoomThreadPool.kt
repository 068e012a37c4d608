package loomylin.server.kotlin

import java.io.IOException
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executor
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.SynchronousQueue
import java.util.concurrent.ThreadFactory
import java.util.concurrent.ThreadPoolExecutor
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.LongAdder
import loomylin.server.jetty.VirtualThreadCounts
import org.eclipse.jetty.util.VirtualThreads
import org.eclipse.jetty.util.annotation.ManagedAttribute
import org.eclipse.jetty.util.annotation.ManagedObject
import org.eclipse.jetty.util.component.ContainerLifeCycle
import org.eclipse.jetty.util.component.Dumpable
import org.eclipse.jetty.util.component.DumpableCollection
import org.eclipse.jetty.util.thread.ThreadPool
import org.eclipse.jetty.util.thread.TryExecutor
import org.slf4j.LoggerFactory

/**
 * A Jetty [ThreadPool] that runs every request on its own virtual thread.
 *
 * Jetty hands a pool two kinds of work through [execute]: its selector and acceptor loops, which run for the
 * server's whole life, and short chores (an accepted socket, a connection resumed after an async response, a
 * closed endpoint). The first [loopThreads] tasks running at once get platform threads, so the loops never
 * occupy a carrier; any task that finds them busy runs on a fresh virtual thread. Request work Jetty sends
 * through [getVirtualThreadsExecutor] (the [VirtualThreads.Configurable] contract its execution strategy
 * honours) gets a fresh virtual thread too: no pool, no queue, no limit. So the pool never holds more than
 * [loopThreads] platform threads, whatever the load.
 *
 * [tryExecute] always refuses: were it to succeed, Jetty would run the request on the selector's platform thread.
 *
 * [stop] waits up to [stopTimeout] for running virtual threads, then interrupts them. [join] returns once the
 * pool is stopped, at once for a pool that is not running.
 *
 * @param name prefix of every thread's name
 * @param loopThreads platform threads for Jetty's long-running loops: its selectors plus acceptors
 */
private val LOG = LoggerFactory.getLogger(LoomThreadPool::class.java)

@ManagedObject("A virtual thread per request; platform threads for Jetty's selectors and acceptors")
class LoomThreadPool(
    @get:ManagedAttribute("name, the prefix of every thread's name") val name: String,
    @get:ManagedAttribute("platform threads for Jetty's loops, at most") val loopThreads: Int,
) :
    ContainerLifeCycle(), ThreadPool, TryExecutor, VirtualThreads.Configurable, VirtualThreadCounts {

    private val virtualThreads: ThreadFactory = Thread.ofVirtual().name("$name-vt-", 0).factory()
    private val virtualExecutor = Executor { startVirtual(it) }
    private val running: MutableSet<Thread> = ConcurrentHashMap.newKeySet()
    private val maxRunning = AtomicInteger()
    private val started = LongAdder()
    private val failed = LongAdder()
    @Volatile private var platform: ThreadPoolExecutor? = null
    @Volatile private var stopped = CountDownLatch(0)

    /** How long stop() waits for running virtual threads before interrupting them. */
    @get:ManagedAttribute("how long stop() waits for running virtual threads before interrupting them")
    @Volatile var stopTimeout: Long = 5_000

    override fun doStart() {
        val count = AtomicInteger()
        val platformThreads = ThreadFactory { task -> Thread(task, "$name-platform-${count.incrementAndGet()}").apply { isDaemon = false } }
        // At most loopThreads platform threads and no queue: a task that finds them all busy goes virtual.
        platform = ThreadPoolExecutor(loopThreads, loopThreads, 0, TimeUnit.SECONDS, SynchronousQueue(), platformThreads) { task, executor ->
            if (executor.isShutdown) throw RejectedExecutionException("$name is $state")
            startVirtual(task)
        }
        stopped = CountDownLatch(1)
        super.doStart()
    }

    override fun doStop() {
        super.doStop()
        val p = checkNotNull(platform) { "$name was never started" }
        p.shutdown()
        val deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stopTimeout)
        while (running.isNotEmpty() && System.nanoTime() < deadline) Thread.sleep(10)
        if (running.isNotEmpty()) {
            LOG.warn("{}: {} virtual threads still running after {} ms, interrupting", name, running.size, stopTimeout)
            running.forEach(Thread::interrupt)
        }
        if (!p.awaitTermination(maxOf(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) p.shutdownNow()
        stopped.countDown()
    }

    /** Jetty's long-running loops get the platform threads; anything arriving once they are taken goes virtual. */
    override fun execute(task: Runnable) {
        val p = platform
        if (p == null || p.isShutdown) throw RejectedExecutionException("$name is $state")
        p.execute(task)
    }

    /** Never lends a thread for Jetty's execute-produce-consume mode; see the class comment. */
    override fun tryExecute(task: Runnable): Boolean = false

    override fun getVirtualThreadsExecutor(): Executor = virtualExecutor

    override fun setVirtualThreadsExecutor(executor: Executor?) {
        throw UnsupportedOperationException("LoomThreadPool always starts its own virtual threads")
    }

    private fun startVirtual(task: Runnable) {
        if (!isRunning && !isStopping) throw RejectedExecutionException("$name is $state")
        virtualThreads.newThread { runCounted(task) }.start()
    }

    private fun runCounted(task: Runnable) {
        val self = Thread.currentThread()
        running.add(self)
        started.increment()
        maxRunning.accumulateAndGet(running.size, ::maxOf)
        try {
            task.run()
        } catch (t: Throwable) {
            failed.increment()
            LOG.warn("{}: task failed: {}", name, t.toString())
        } finally {
            running.remove(self)
        }
    }

    override fun join() = stopped.await()

    /** Platform threads alive plus virtual threads running. */
    @ManagedAttribute("threads: platform threads alive plus virtual threads running")
    override fun getThreads(): Int = platformThreads + virtualThreadsRunning

    /** Platform threads waiting for a loop to run; virtual threads are never idle, they end. */
    @ManagedAttribute("idle platform threads")
    override fun getIdleThreads(): Int = platform?.let { it.poolSize - it.activeCount } ?: 0

    /** A virtual thread is always available. */
    override fun isLowOnThreads(): Boolean = false

    @ManagedAttribute("platform threads alive")
    override fun getPlatformThreads(): Int = platform?.poolSize ?: 0

    @get:ManagedAttribute("most platform threads alive at once")
    val maxPlatformThreads: Int get() = platform?.largestPoolSize ?: 0

    @ManagedAttribute("virtual threads running a task now")
    override fun getVirtualThreadsRunning(): Int = running.size

    @get:ManagedAttribute("most virtual threads running at once since start or resetMax()")
    val maxVirtualThreadsRunning: Int get() = maxRunning.get()

    @ManagedAttribute("virtual threads started since start")
    override fun getVirtualThreadsStarted(): Long = started.sum()

    @get:ManagedAttribute("tasks that ended with an exception")
    val failedTasks: Long get() = failed.sum()

    fun resetMax() = maxRunning.set(running.size)

    @Throws(IOException::class)
    override fun dump(out: Appendable, indent: String) {
        val threads = running.map { t ->
            val stack = t.stackTrace
            "${t.name} ${t.state}" + if (stack.isNotEmpty()) " at ${stack[0]}" else ""
        }
        Dumpable.dumpObjects(out, indent, this, DumpableCollection("virtual threads running", threads))
    }

    override fun toString(): String = String.format(
        "%s[%s]@%x{%s,platform=%d,virtual=%d,maxVirtual=%d,started=%d}",
        javaClass.simpleName, name, hashCode(), state, platformThreads,
        virtualThreadsRunning, maxVirtualThreadsRunning, virtualThreadsStarted,
    )
}
