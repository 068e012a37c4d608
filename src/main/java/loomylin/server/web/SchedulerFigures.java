package loomylin.server.web;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The virtual-thread scheduler's half of /pool, read from {@code jdk.management.VirtualThreadSchedulerMXBean}
 * (JDK 24 and later) through the platform MBean server by its object name, so the jar still runs on JDK 21:
 * {@code vtParallelism} (carriers the scheduler aims to keep running), {@code vtPoolSize} (carrier threads it
 * has, including ones added to compensate for blocking), {@code vtMounted} (virtual threads on a carrier right
 * now) and {@code vtQueued} (ready virtual threads waiting for a carrier). Each is {@link #NOT_KNOWN} on a JDK
 * without the bean, such as JDK 21: never a made-up number.
 */
public final class SchedulerFigures {
    static final String BEAN = "jdk.management:type=VirtualThreadScheduler";
    private static final String[] ATTRIBUTES = {"Parallelism", "PoolSize", "MountedVirtualThreadCount", "QueuedVirtualThreadCount"};
    private static final String[] KEYS = {"vtParallelism", "vtPoolSize", "vtMounted", "vtQueued"};
    /** A figure the running JDK does not tell. */
    public static final String NOT_KNOWN = "n/a";

    private SchedulerFigures() {
    }

    public static Map<String, Object> read() {
        Map<String, Object> f = new LinkedHashMap<>();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (int i = 0; i < KEYS.length; i++) f.put(KEYS[i], attribute(server, ATTRIBUTES[i]));
        return f;
    }

    private static Object attribute(MBeanServer server, String name) {
        try {
            return ((Number) server.getAttribute(new ObjectName(BEAN), name)).longValue();
        } catch (JMException | ClassCastException e) {
            return NOT_KNOWN; // no such bean before JDK 24
        }
    }
}
