package loomylin.lab.experiment.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** advise's request profile: what it simulates, the rates it offers, what it predicts, and each profile it refuses before running anything. */
class ProfileTest {

    private static UsageError refused(String cpu, String wait, String rate, String threads, String body) {
        return assertThrows(UsageError.class, () -> Profile.parse(cpu, wait, rate, threads, body, "0"));
    }

    @Test
    void theRatesAreTheUsersOneAndAHalfAndTwice() {
        assertEquals(List.of(300, 450, 600), Profile.parse("2", "40", "300", "200", "0", "0").rates(64));
    }

    @Test
    void aKneePredictedWithinFourTimesTheRateGetsARateATenthPastIt() {
        // 2 cores / (2 ms + 0.15 ms) = 930 req/s, past twice 300 and within four times it
        assertEquals(List.of(300, 450, 600, (int) Math.ceil(1.1 * 2000 / 2.15)), Profile.parse("2", "40", "300", "200", "0", "0").rates(2));
        // qtp:10's knee, 8 request threads / 0.0052 s = 1538 req/s, lies past four times 20
        assertEquals(List.of(20, 30, 40), Profile.parse("0.2", "5", "20", "10", "0", "0").rates(2));
    }

    @Test
    void aRatePastTheCoresIsOfferedBesideTheRateTheyAllow() {
        Profile p = Profile.parse("2", "40", "1000", "200", "0", "0");
        assertTrue(p.overloaded(2));
        assertEquals(List.of((int) Math.floor(0.7 * 2000 / 2.15), 1000), p.rates(2));
        Profile far = Profile.parse("50", "60", "10000", "200", "0", "0");
        assertEquals(List.of((int) Math.floor(0.7 * 2000 / 50.15), (int) Math.ceil(2 * 2000 / 50.15)), far.rates(2), "an overload far past the cores is offered at twice their capacity");
        far.checkMachine(2, OptionalLong.of(1024));
    }

    @Test
    void theQuerySimulatesCpuWaitAndBodyOnMixed() {
        assertEquals("mixed?cpu=4800&sleep=40&file=1000", Profile.parse("2", "40", "300", "200", "1000", "0").query(4800));
    }

    @Test
    void littlesLawKneeIsTheRequestThreadsOverTheRequestTime() {
        assertEquals(198 / 0.042, Profile.littleKnee(PoolKind.qtp(200), 0.042), 1e-9); // 2 threads leased by the connector
        assertEquals(198 / 0.042, Profile.littleKnee(PoolKind.parse("qtp:8-200"), 0.042), 1e-9, "a growing pool's knee is at its most threads");
        assertTrue(Double.isInfinite(Profile.littleKnee(PoolKind.loom(), 0.042)));
    }

    @Test
    void theCpuKneeIsTheCoresOverTheCpuPerRequest() {
        assertEquals(1000, Profile.cpuKnee(2, 2.0), 1e-9);
    }

    @Test
    void connectionsHoldFourTimesWhatLittlesLawKeepsInFlightAtTwiceTheRate() {
        assertEquals(101, Profile.parse("2", "40", "300", "200", "0", "0").connections(64)); // 4 x 600/s x 0.042 s = 100.8
        assertEquals(Profile.MIN_CONNECTIONS, Profile.parse("0", "1", "10", "200", "0", "0").connections(64));
    }

    @Test
    void callsJoinTheQueryAndNeedTheBackend() {
        Profile p = Profile.parse("2", "40", "300", "200", "0", "3");
        assertEquals("mixed?cpu=4800&sleep=40&file=0&calls=3", p.query(4800));
        assertTrue(p.usesBackend());
    }

    @Test
    void moreCallsThanMixedTakesAreRefused() {
        UsageError e = assertThrows(UsageError.class, () -> Profile.parse("2", "40", "300", "200", "0", "101"));
        assertTrue(e.getMessage().startsWith("--calls must be from 0"), e.getMessage());
    }

    @Test
    void aCallLongerThanTheServersHopTimeoutIsRefused() {
        UsageError e = assertThrows(UsageError.class, () -> Profile.parse("1", "6000", "10", "200", "0", "1"));
        assertTrue(e.getMessage().contains("504"), e.getMessage());
        Profile.parse("1", "6000", "10", "200", "0", "2"); // 3000 ms a call
    }

    @Test
    void aNegativeNumberIsRefused() {
        assertTrue(refused("-1", "40", "300", "200", "0").getMessage().startsWith("--cpu-ms must be"));
        assertTrue(refused("2", "-40", "300", "200", "0").getMessage().startsWith("--wait-ms must be"));
        assertTrue(refused("2", "40", "-300", "200", "0").getMessage().startsWith("--rate must be"));
        assertTrue(refused("2", "40", "300", "200", "-1").getMessage().startsWith("--body-bytes must be"));
    }

    @Test
    void somethingThatIsNotANumberIsRefused() {
        assertTrue(refused("two", "40", "300", "200", "0").getMessage().contains("'two'"));
        assertTrue(refused("2", "40.5", "300", "200", "0").getMessage().startsWith("--wait-ms must be a whole number"));
    }

    @Test
    void aMissingFlagIsNamed() {
        assertEquals("advise needs --threads", refused("2", "40", "300", null, "0").getMessage());
    }

    @Test
    void aCpuHeavyProfileIsMeasuredNotRefused() {
        Profile p = Profile.parse("5", "1", "50", "200", "0", "0");
        assertEquals(List.of(50, 75, 100), p.rates(2), "2 cores / 5.15 ms = 388 req/s: past four times the rate");
        assertEquals(List.of(100, 150, 200, (int) Math.ceil(1.1 * 2000 / 5.15)), Profile.parse("5", "1", "100", "200", "0", "0").rates(2),
                "within four times 100: measured a tenth past it");
        p.checkMachine(2, OptionalLong.of(1024));
    }

    @Test
    void aPoolWithNoThreadLeftForRequestsIsRefused() {
        assertTrue(refused("2", "40", "300", "2", "0").getMessage().startsWith("--threads must be from 3"));
    }

    @Test
    void aBodyLargerThanTheServersDataFileIsRefused() {
        assertTrue(refused("2", "40", "300", "200", "999999999").getMessage().startsWith("--body-bytes must be"));
    }

    @Test
    void moreConnectionsThanTheOpenFileLimitIsRefused() {
        UsageError e = assertThrows(UsageError.class, () -> Profile.parse("0", "10000", "1000", "200", "0", "0").checkMachine(2, OptionalLong.of(1024)));
        assertTrue(e.getMessage().contains("open-file limit is 1024"), e.getMessage());
    }

    @Test
    void aProfileTheMachineCanOfferPasses() {
        Profile.parse("2", "40", "300", "200", "0", "0").checkMachine(2, OptionalLong.of(1024));
    }
}
