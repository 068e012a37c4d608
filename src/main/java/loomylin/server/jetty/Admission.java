package loomylin.server.jetty;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.server.Server;

/**
 * What {@code --max-in-flight} ({@link AdmissionLimit}) is doing at one moment: the capacity signal of a server
 * whose threads no longer saturate. Read from the server's handler chain; empty for a server without a limit.
 *
 * @param setting          {@code --max-in-flight} as given: fixed or auto with its algorithm
 * @param limit            the most requests admitted at once now: the fixed limit, or where auto has moved it
 * @param min              the least the limit can be (the fixed limit itself, or {@link MaxInFlight#AUTO_MIN})
 * @param max              the most the limit can be (the fixed limit itself, or {@link MaxInFlight#AUTO_MAX})
 * @param admitted         requests admitted past the limit and not yet complete (excluded paths such as
 *                         /pool are not counted)
 * @param queued           requests suspended by the limit, waiting for a slot
 * @param expired          requests answered 503 because they waited {@code --max-in-flight-wait-ms} without a slot
 * @param rejected         requests answered 503 at once: the queue was full, or {@code --max-in-flight-wait-ms} is 0
 * @param succeeded        admitted requests that completed with an answer below 500 (each a latency sample for auto)
 * @param dropped          admitted requests that completed as a drop: a 503 or 504 answer, or a response failed by a timeout
 * @param ignored          admitted requests that completed without a sample: another 5xx, or the connection failed
 * @param waitBuckets      how long each admitted request waited for its slot (0 for most when the server keeps
 *                         up), per bucket of {@link RequestCounts#BUCKETS_SECONDS}
 * @param waitSecondsTotal the sum of those waits
 */
public record Admission(MaxInFlight setting, int limit, int min, int max, int admitted, int queued, long expired, long rejected,
                        long succeeded, long dropped, long ignored, long[] waitBuckets, double waitSecondsTotal) {

    public static Optional<Admission> of(Server server) {
        AdmissionLimit limit = server.getDescendant(AdmissionLimit.class);
        if (limit == null) return Optional.empty();
        MaxInFlight setting = limit.setting();
        return Optional.of(new Admission(setting, limit.limit(), setting.min(), setting.max(), limit.admitted(), limit.queued(),
                limit.expired(), limit.rejected(), limit.succeeded(), limit.dropped(), limit.ignored(), limit.waits().buckets(),
                limit.waits().secondsTotal()));
    }

    /** Requests the limit answered 503: expired and rejected. */
    public long refused() {
        return expired + rejected;
    }

    /** The figures /pool adds for a server with a limit, named as there. */
    public Map<String, Object> fields() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("admission", setting.toString());
        f.put("admissionAlgorithm", setting.algorithmName());
        f.put("admissionLimit", limit);
        f.put("admissionLimitMin", min);
        f.put("admissionLimitMax", max);
        f.put("admissionInFlight", admitted);
        f.put("admissionQueued", queued);
        f.put("admissionRefused", refused());
        f.put("admissionExpired", expired);
        f.put("admissionRejected", rejected);
        f.put("admissionSucceeded", succeeded);
        f.put("admissionDropped", dropped);
        f.put("admissionIgnored", ignored);
        return f;
    }
}
