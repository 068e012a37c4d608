package loomylin.server.admin;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import loomylin.server.web.SchedulerFigures;

/**
 * The admin port's figures for servers Loomylin did not build (the agent's: an application's own Jetty servers on
 * a pool the agent put in), under the same names as Loomylin's own admin port, so that a dashboard of either reads
 * both: {@code /metrics} as {@link Metrics} writes it (the pool's threads, queue, limits, virtual threads started
 * and a capped pool's tasks; the process's threads by owner, the virtual-thread scheduler, pinned virtual threads;
 * the JVM's and the process's own series), without the request counts, which come from Loomylin's handler chain;
 * and the JVM-wide half of {@code /pool}. Pinned virtual threads are counted from {@link #start} on.
 */
public final class PoolWatch implements AutoCloseable {
    /** The content type of {@link #metrics()}. */
    public static final String METRICS_CONTENT_TYPE = Metrics.CONTENT_TYPE;

    private final Metrics metrics;
    private final PinnedThreads pins;

    private PoolWatch(Metrics metrics, PinnedThreads pins) {
        this.metrics = metrics;
        this.pins = pins;
    }

    /** Watches the servers {@code servers} gives at each reading (it may grow as the application builds more). */
    public static PoolWatch start(Supplier<List<Watched>> servers) {
        VirtualThreadScheduler scheduler = new VirtualThreadScheduler();
        PinnedThreads pins = PinnedThreads.start();
        ThreadOwners owners = new ThreadOwners(servers, null, null, scheduler);
        return new PoolWatch(new Metrics(servers, owners, scheduler, pins), pins);
    }

    /** {@code /metrics}: the Prometheus text format. */
    public String metrics() {
        return metrics.scrape();
    }

    /**
     * The JVM-wide half of {@code /pool}: its platform threads, the virtual-thread scheduler's figures as Loomylin's
     * own {@code /pool} names them ({@code vtParallelism}, ...; {@code "n/a"} before JDK 24), and the pinned virtual
     * threads as the live view names them ({@code pinned}, {@code pinnedSeconds}, {@code pinnedWhere}).
     */
    public Map<String, Object> jvmFigures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("jvmPlatformThreads", ManagementFactory.getThreadMXBean().getThreadCount());
        f.put("jvmPeakPlatformThreads", ManagementFactory.getThreadMXBean().getPeakThreadCount());
        f.putAll(SchedulerFigures.read());
        PinnedThreads.Reading pinned = pins.read();
        f.put("pinned", pinned.known() ? pinned.pinned() : SchedulerFigures.NOT_KNOWN);
        f.put("pinnedSeconds", pinned.known() ? Math.round(pinned.seconds() * 1000) / 1000.0 : SchedulerFigures.NOT_KNOWN);
        f.put("pinnedWhere", pinned.where());
        return f;
    }

    @Override
    public void close() {
        pins.close();
    }
}
