package loomylin.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** {@link Stops} sees virtual threads by name (the build exports jdk.internal.vm to the tests), and their end. */
class StopsTest {
    @Test
    void aParkedVirtualThreadIsListedUntilItEnds() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread parked = Thread.ofVirtual().name("stops-test-parked-vt").start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(Stops.threadNames().contains("stops-test-parked-vt"), "virtual threads listed: " + Stops.threadNames());
        release.countDown();
        parked.join();
        Stops.awaitNoThreads("StopsTest", "stops-test-parked-vt");
    }
}
