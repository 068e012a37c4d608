package loomylin.server.admin;

import java.util.Map;
import loomylin.server.web.SchedulerFigures;

/**
 * The JDK's virtual-thread scheduler as {@code jdk.management.VirtualThreadSchedulerMXBean} (JDK 24 and
 * later) shows it, read through {@link SchedulerFigures} (the same figures /pool reports): carriers
 * (parallelism, pool size) and virtual threads mounted on them or queued for one; -1 on an older JDK.
 */
final class VirtualThreadScheduler {
    /** One reading; -1 where the running JDK does not tell. */
    record Reading(int parallelism, int carriers, int mounted, long queued) {
        boolean known() {
            return parallelism >= 0;
        }

        /** Mounted virtual threads per carrier aimed for: 1 when every carrier runs one; 0 when unknown. */
        double utilisation() {
            return parallelism > 0 && mounted >= 0 ? (double) mounted / parallelism : 0;
        }
    }

    Reading read() {
        Map<String, Object> f = SchedulerFigures.read();
        return new Reading(number(f, "vtParallelism").intValue(), number(f, "vtPoolSize").intValue(),
                number(f, "vtMounted").intValue(), number(f, "vtQueued").longValue());
    }

    /** The figure, or -1 where the JDK does not tell ({@link SchedulerFigures#NOT_KNOWN}). */
    private static Number number(Map<String, Object> figures, String key) {
        return figures.get(key) instanceof Number n ? n : -1;
    }
}
