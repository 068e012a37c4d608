package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A deciding closed-loop window leaves every client room for 20 answers of the endpoint's wait. */
class WindowsTest {
    @Test
    void aLongWaitGetsAWindowOfTwentyWaitsAndHalfAgain() {
        assertEquals(20, Windows.closedS(20, Endpoint.parse("wait-blocking?ms=100")));
        assertEquals(20, Windows.closedS(20, Endpoint.parse("mixed?cpu=1000&sleep=0&file=0")));
        assertEquals(20, Windows.closedS(20, Endpoint.parse("hops-async")));
        assertEquals(30, Windows.closedS(20, Endpoint.parse("wait-blocking?ms=1000")));
        assertEquals(24, Windows.closedS(20, Endpoint.parse("mixed?cpu=282942&sleep=800&file=16777216")));
        assertEquals(40, Windows.closedS(40, Endpoint.parse("wait-async?ms=1000")), "a longer window asked for stays");
    }

    @Test
    void aShortWindowThatDecidesNothingStaysShort() {
        assertEquals(3, Windows.closedS(3, Endpoint.parse("wait-blocking?ms=1000")));
        assertFalse(Windows.decide(3, 3));
        assertTrue(Windows.decide(Windows.DECIDING_CLOSED_S, Windows.DECIDING_OPEN_S));
    }
}
