package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClientLimitTest {
    @Test
    void aClientThatKeepsItsOwnCpusBusyIsTheLimit() {
        // pinned to 1 of 2 cores and using 46 % of the machine: 92 % of its own core
        assertTrue(ClientLimit.of(46, 10, 1, 2, false, 90));
        assertFalse(ClientLimit.of(40, 10, 1, 2, false, 90));
    }

    @Test
    void aSaturatedSharedMachineMeansTheServerWasNotTheOnlyLimit() {
        // a CPU-bound cell on 2 shared cores: the server 75 %, the client 20 % of the machine
        assertTrue(ClientLimit.of(20, 75, 2, 2, true, 90));
        assertFalse(ClientLimit.of(20, 60, 2, 2, true, 90), "a quarter of the machine idle");
    }

    @Test
    void separateCpusOrAnUnknownServerLeaveOnlyTheClientsOwnShare() {
        assertFalse(ClientLimit.of(20, 75, 1, 2, false, 90), "client and server on their own CPUs");
        assertFalse(ClientLimit.of(20, Double.NaN, 2, 2, true, 90), "a --target bench without --metrics");
    }

    @Test
    void aMachineBusyAsAWholeIsFullWhateverTheClientsShare() {
        // the machine's busy share alone: client, server and the rest (the bench's JVM, the kernel) together
        assertTrue(ClientLimit.machineFull(95, 90));
        assertTrue(ClientLimit.machineFull(90, 90), "at the threshold");
        assertFalse(ClientLimit.machineFull(89.9, 90));
        assertFalse(ClientLimit.machineFull(Double.NaN, 90), "not recorded: not full");
    }
}
