package loomylin.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one reading of durations on the command line: ms, s and m, each the same way for every flag. */
class DurationsTest {
    private static final Duration MIN = Duration.ofMillis(1);
    private static final Duration MAX = Duration.ofHours(1);

    @Test
    void readsMillisecondsSecondsAndMinutes() {
        assertEquals(Duration.ofMillis(500), Durations.parse("--warmup", "500ms", MIN, MAX));
        assertEquals(Duration.ofSeconds(8), Durations.parse("--warmup", " 8s ", MIN, MAX));
        assertEquals(Duration.ofMinutes(2), Durations.parse("--warmup", "2m", MIN, MAX));
    }

    @Test
    void anotherFormIsAUsageErrorNamingTheSource() {
        UsageError e = assertThrows(UsageError.class, () -> Durations.parse("LOOMYLIN_WARMUP", "8", MIN, MAX));
        assertEquals("LOOMYLIN_WARMUP must be a duration such as 500ms, 10s or 2m, got '8'", e.getMessage());
        assertThrows(UsageError.class, () -> Durations.parse("--warmup", "1.5s", MIN, MAX));
        assertThrows(UsageError.class, () -> Durations.parse("--warmup", "2h", MIN, MAX));
        assertThrows(UsageError.class, () -> Durations.parse("--warmup", null, MIN, MAX));
    }

    @Test
    void aDurationOutsideTheRangeIsAUsageError() {
        UsageError e = assertThrows(UsageError.class, () -> Durations.parse("--warmup", "0s", MIN, MAX));
        assertEquals("--warmup must be from 1ms to 60m, got '0s'", e.getMessage());
        assertThrows(UsageError.class, () -> Durations.parse("--warmup", "61m", MIN, MAX));
    }

    @Test
    void writesTheLargestExactUnitBack() {
        assertEquals("2m", Durations.go(Duration.ofMinutes(2)));
        assertEquals("90s", Durations.go(Duration.ofSeconds(90)));
        assertEquals("1500ms", Durations.go(Duration.ofMillis(1500)));
        assertEquals("0s", Durations.go(Duration.ZERO));
    }
}
