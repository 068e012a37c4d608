package loomylin.server.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the library does with a token, and why {@link LimitStrategy} guards its algorithms: a {@code SimpleLimiter}
 * gives a token's permit back only after the algorithm took its sample, and {@code VegasLimit} throws for an RTT of
 * 0 (a clock that reads the same twice), so a bare limiter loses a slot for good; the guarded one does not.
 */
class LimitStrategyTest {

    /** A clock that never moves: every RTT is 0. */
    static SimpleLimiter<Void> frozen(Limit limit) {
        return SimpleLimiter.newBuilder().limit(limit).nanoClock(() -> 42L).build();
    }

    /** Takes every slot there is, then gives each back as a success; how many it could take. */
    static int takeAllAndSucceed(SimpleLimiter<Void> limiter) {
        List<Limiter.Listener> held = new ArrayList<>();
        for (Optional<Limiter.Listener> t = limiter.acquire(null); t.isPresent(); t = limiter.acquire(null)) held.add(t.get());
        for (Limiter.Listener t : held) {
            try {
                t.onSuccess();
            } catch (IllegalArgumentException e) {
                // the bare VegasLimit: "rtt must be >0"
            }
        }
        return held.size();
    }

    @Test
    void theBareLibraryLosesASlotForEveryRttOfZero() {
        SimpleLimiter<Void> bare = frozen(VegasLimit.newBuilder().initialLimit(4).build());
        Limiter.Listener token = bare.acquire(null).orElseThrow();
        assertThrows(IllegalArgumentException.class, token::onSuccess, "VegasLimit refuses an RTT of 0");
        assertEquals(3, takeAllAndSucceed(bare), "the permit of the token whose sample threw never came back");
        assertEquals(0, takeAllAndSucceed(bare), "each release that throws keeps its permit: the limit wedges at 0 slots");
    }

    @Test
    void theGuardedLimitGivesEverySlotBack() {
        SimpleLimiter<Void> guarded = frozen(new LimitStrategy.Guarded(VegasLimit.newBuilder().initialLimit(4).build()));
        for (int round = 0; round < 5; round++) {
            int taken = takeAllAndSucceed(guarded);
            assertTrue(taken >= 1, "round " + round + ": no slot left");
        }
        assertEquals(0, guarded.getInflight());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"5", "auto", "auto:vegas", "auto:aimd"})
    void everyLimitStartsWithinItsBoundsAndEveryOutcomeGivesTheSlotBack(String spelling) {
        MaxInFlight setting = MaxInFlight.parse(spelling);
        SimpleLimiter<Void> limiter = LimitStrategy.limiter(setting);
        int start = limiter.getLimit();
        assertEquals(setting.adaptive() ? MaxInFlight.AUTO_INITIAL : 5, start);
        for (int round = 0; round < 50; round++) {
            List<Limiter.Listener> held = new ArrayList<>();
            for (Optional<Limiter.Listener> t = limiter.acquire(null); t.isPresent(); t = limiter.acquire(null)) held.add(t.get());
            assertEquals(limiter.getLimit(), held.size(), "as many slots as the limit");
            for (int i = 0; i < held.size(); i++) {
                switch (i % 3) {
                    case 0 -> held.get(i).onSuccess();
                    case 1 -> held.get(i).onDropped();
                    default -> held.get(i).onIgnore();
                }
            }
            assertEquals(0, limiter.getInflight());
            assertTrue(limiter.getLimit() >= setting.min() && limiter.getLimit() <= setting.max(), "within bounds: " + limiter.getLimit());
        }
    }
}
