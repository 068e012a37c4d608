package loomylin.server.kotlin

import loomylin.server.jetty.BoundedStopQueuedThreadPool
import loomylin.server.jetty.JettySetup
import loomylin.server.jetty.PoolKind
import loomylin.server.jetty.internal.TaskPermits
import org.eclipse.jetty.util.VirtualThreads
import org.eclipse.jetty.util.thread.QueuedThreadPool
import org.eclipse.jetty.util.thread.ThreadPool
import org.eclipse.jetty.util.thread.VirtualThreadPool

/** Turns a [PoolKind] into a real Jetty pool, and a pool into the figures /pool reports. */
object Pools {

    @JvmStatic
    fun create(kind: PoolKind, name: String): ThreadPool = when (kind.type()) {
        PoolKind.Type.QTP -> if (kind.grows()) {
            BoundedStopQueuedThreadPool(kind.size(), kind.min(), name) // new QueuedThreadPool()'s shape: starts min, grows to max
        } else {
            queued(kind.size(), name)
        }
        PoolKind.Type.LOOM -> LoomThreadPool(name, JettySetup.LOOP_THREADS).apply { stopTimeout = JettySetup.POOL_STOP_TIMEOUT_MS.toLong() }
        PoolKind.Type.JETTY_VTP -> VirtualThreadPool(kind.size()).apply { this.name = "$name-" } // 0: no cap on concurrent tasks; threads NAME-1, as a QueuedThreadPool's
        PoolKind.Type.QTP_VT -> queued(kind.size(), name).apply {
            virtualThreadsExecutor = VirtualThreads.getNamedVirtualThreadsExecutor("$name-vt-")
        }
        PoolKind.Type.QTP_VTP -> queued(kind.size(), name).apply {
            val tasks = VirtualThreadPool(kind.cap()).apply { this.name = "$name-vt-" } // caps tasks running at once, not threads created
            virtualThreadsExecutor = tasks
            addBean(tasks) // QueuedThreadPool does not start its virtual-threads executor: as its bean it starts and stops with it
        }
    }

    private fun queued(size: Int, name: String): QueuedThreadPool =
        BoundedStopQueuedThreadPool(size, name) // fixed size, as the seed's pools were

    /** The pool's own figures, named as Jetty names them. */
    @JvmStatic
    fun figures(pool: ThreadPool): Map<String, Any> = buildMap {
        put("pool", pool.javaClass.simpleName)
        put("threads", pool.threads)
        put("idleThreads", pool.idleThreads)
        when (pool) {
            is QueuedThreadPool -> {
                put("minThreads", pool.minThreads)
                put("maxThreads", pool.maxThreads)
                put("busyThreads", pool.busyThreads)
                put("leasedThreads", pool.leasedThreads)
                put("reservedThreads", pool.reservedThreads)
                put("utilizedThreads", pool.utilizedThreads)
                put("queueSize", pool.queueSize)
                put("virtualThreads", pool.virtualThreadsExecutor != null)
                (pool.virtualThreadsExecutor as? VirtualThreadPool)?.let {
                    put("maxConcurrentTasks", it.maxConcurrentTasks)
                    putPermits(it)
                }
            }
            is LoomThreadPool -> {
                put("loopThreads", pool.loopThreads)
                put("platformThreads", pool.platformThreads)
                put("maxPlatformThreads", pool.maxPlatformThreads)
                put("busyThreads", pool.virtualThreadsRunning)
                put("maxBusyThreads", pool.maxVirtualThreadsRunning)
                put("virtualThreadsStarted", pool.virtualThreadsStarted)
                put("queueSize", 0)
                put("virtualThreads", true)
            }
            is VirtualThreadPool -> {
                put("maxConcurrentTasks", pool.maxConcurrentTasks)
                put("queueSize", 0)
                put("virtualThreads", true)
                putPermits(pool)
            }
        }
    }

    /** A capped VirtualThreadPool's tasks running (holding a permit) and waiting for a permit. */
    private fun MutableMap<String, Any>.putPermits(pool: VirtualThreadPool) {
        TaskPermits.of(pool).ifPresent {
            put("tasksRunning", it.running())
            put("tasksWaiting", it.waiting())
        }
    }
}
