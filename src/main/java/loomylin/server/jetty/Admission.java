package loomylin.server.jetty;

import java.util.Optional;
import org.eclipse.jetty.server.Server;

/**
 * What {@code --max-in-flight} ({@link AdmissionLimit}) is doing at one moment: the capacity signal of a server
 * whose threads no longer saturate. Read from the server's handler chain; empty for a server without a limit.
 *
 * @param limit            the most requests admitted at once ({@code --max-in-flight})
 * @param admitted         requests admitted past the limit and not yet complete (excluded paths such as
 *                         /pool are not counted)
 * @param queued           requests suspended by the limit, waiting for a slot
 * @param expired          requests answered 503 because they waited {@code --max-in-flight-wait-ms} without a slot
 * @param rejected         requests answered 503 at once: the queue was full, or {@code --max-in-flight-wait-ms} is 0
 * @param waitBuckets      how long each admitted request waited for its slot (0 for most when the server keeps
 *                         up), per bucket of {@link RequestCounts#BUCKETS_SECONDS}
 * @param waitSecondsTotal the sum of those waits
 */
public record Admission(int limit, int admitted, int queued, long expired, long rejected, long[] waitBuckets, double waitSecondsTotal) {

    public static Optional<Admission> of(Server server) {
        AdmissionLimit limit = server.getDescendant(AdmissionLimit.class);
        if (limit == null) return Optional.empty();
        return Optional.of(new Admission(limit.limit(), limit.admitted(), limit.queued(), limit.expired(), limit.rejected(),
                limit.waits().buckets(), limit.waits().secondsTotal()));
    }
}
