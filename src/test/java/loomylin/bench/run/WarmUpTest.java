package loomylin.bench.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bench's warm-up gate: a slice settles the warm-up only when it answered the rate of the slice before it, within the settled rule's share. */
class WarmUpTest {

    @Test
    void twoSlicesInARowWithinATenthSettleTheWarmUp() {
        assertTrue(RunExecutor.settles(1000, 1090));
        assertTrue(RunExecutor.settles(1000, 910));
        assertFalse(RunExecutor.settles(1000, 1120), "a ramp: the JIT still compiling");
        assertFalse(RunExecutor.settles(Double.NaN, 1000), "the first slice settles nothing");
        assertFalse(RunExecutor.settles(0, 0), "a slice that answered nothing settles nothing");
    }
}
