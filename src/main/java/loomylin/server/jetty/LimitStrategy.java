package loomylin.server.jetty;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What supplies {@link AdmissionLimit}'s limit value: a {@link SimpleLimiter} of Netflix's concurrency-limits over
 * {@link FixedLimit} for {@code --max-in-flight N}, or over {@link Gradient2Limit}, {@link VegasLimit} or
 * {@link AIMDLimit} for {@code auto}, bounded by {@link MaxInFlight#AUTO_MIN} and {@link MaxInFlight#AUTO_MAX} and
 * starting at {@link MaxInFlight#AUTO_INITIAL}; the algorithms' other settings are the library's defaults.
 *
 * <p>Every algorithm sits behind {@link Guarded}: {@code SimpleLimiter}'s token gives its permit back only after
 * the algorithm has taken its sample, so an algorithm that throws keeps the permit for good, and {@code VegasLimit}
 * throws for an RTT of 0 ns (two equal readings of {@code System.nanoTime}); a limit that loses a permit per such
 * request ends at 0 and wedges. The guard gives the algorithm at least 1 ns and swallows (and logs once) whatever it
 * throws ({@code LimitStrategyTest} shows both).
 */
final class LimitStrategy {
    private LimitStrategy() {
    }

    static SimpleLimiter<Void> limiter(MaxInFlight setting) {
        if (!setting.isSet()) throw new IllegalArgumentException("no limit to supply");
        return SimpleLimiter.newBuilder().named("loomylin-admission").limit(new Guarded(algorithm(setting))).build();
    }

    static Limit algorithm(MaxInFlight setting) {
        if (!setting.adaptive()) return FixedLimit.of(setting.fixed());
        return switch (setting.algorithm()) {
            case GRADIENT2 -> Gradient2Limit.newBuilder().initialLimit(MaxInFlight.AUTO_INITIAL).minLimit(MaxInFlight.AUTO_MIN)
                    .maxConcurrency(MaxInFlight.AUTO_MAX).build();
            case VEGAS -> VegasLimit.newBuilder().initialLimit(MaxInFlight.AUTO_INITIAL).maxConcurrency(MaxInFlight.AUTO_MAX).build(); // its floor is 1
            case AIMD -> AIMDLimit.newBuilder().initialLimit(MaxInFlight.AUTO_INITIAL).minLimit(MaxInFlight.AUTO_MIN)
                    .maxLimit(MaxInFlight.AUTO_MAX).build();
        };
    }

    /** An algorithm that never throws into the token that would then keep its permit; its RTT at least 1 ns. */
    static final class Guarded implements Limit {
        private static final Logger LOG = LoggerFactory.getLogger(LimitStrategy.class);
        private final Limit delegate;
        private final AtomicBoolean warned = new AtomicBoolean();

        Guarded(Limit delegate) {
            this.delegate = delegate;
        }

        @Override
        public int getLimit() {
            return delegate.getLimit();
        }

        @Override
        public void notifyOnChange(Consumer<Integer> consumer) {
            delegate.notifyOnChange(consumer);
        }

        @Override
        public void onSample(long startTime, long rtt, int inflight, boolean didDrop) {
            try {
                delegate.onSample(startTime, Math.max(1, rtt), inflight, didDrop);
            } catch (RuntimeException e) {
                if (warned.compareAndSet(false, true)) LOG.warn("admission limit: {} refused a sample ({}); samples it refuses are skipped", delegate, e.toString());
            }
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
