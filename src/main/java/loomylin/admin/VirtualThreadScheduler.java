package loomylin.admin;

import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.reflect.Method;

/**
 * The JDK's virtual-thread scheduler as {@code jdk.management.VirtualThreadSchedulerMXBean} (JDK 24 and
 * later) shows it: carriers (parallelism, pool size) and virtual threads mounted on them or queued for one.
 * Loomylin compiles for release 21, so the bean is looked up by name; on a JDK without it every figure is -1.
 */
public final class VirtualThreadScheduler {
    /** One reading; -1 where the running JDK does not tell. */
    public record Reading(int parallelism, int carriers, int mounted, long queued) {
        public boolean known() {
            return parallelism >= 0;
        }
    }

    private static final Reading UNKNOWN = new Reading(-1, -1, -1, -1);

    private final Object bean;
    private final Method parallelism;
    private final Method poolSize;
    private final Method mounted;
    private final Method queued;

    public VirtualThreadScheduler() {
        Object found = null;
        Method[] methods = new Method[4];
        try {
            Class<?> type = Class.forName("jdk.management.VirtualThreadSchedulerMXBean");
            found = ManagementFactory.getPlatformMXBean(type.asSubclass(PlatformManagedObject.class));
            methods[0] = type.getMethod("getParallelism");
            methods[1] = type.getMethod("getPoolSize");
            methods[2] = type.getMethod("getMountedVirtualThreadCount");
            methods[3] = type.getMethod("getQueuedVirtualThreadCount");
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            found = null; // a JDK before 24
        }
        bean = found;
        parallelism = methods[0];
        poolSize = methods[1];
        mounted = methods[2];
        queued = methods[3];
    }

    public Reading read() {
        if (bean == null) return UNKNOWN;
        try {
            return new Reading((int) parallelism.invoke(bean), (int) poolSize.invoke(bean),
                    (int) mounted.invoke(bean), (long) queued.invoke(bean));
        } catch (ReflectiveOperationException e) {
            return UNKNOWN;
        }
    }
}
