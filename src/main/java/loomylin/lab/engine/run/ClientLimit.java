package loomylin.lab.engine.run;

/**
 * Whether the server may not have been what limited a run. On a machine the client shares with the server, a
 * load generator that needs CPU takes it from the server, so there are two ways the server's figures stop being
 * the server's alone: the client kept busy nearly all the CPUs it may use, or client and server together kept
 * nearly the whole machine busy (a CPU-bound cell, where every cycle the client spends is one the server lacks).
 * Either marks the run {@code client_limited}: its throughput is a floor for the server, not its capacity.
 */
public final class ClientLimit {
    private ClientLimit() {
    }

    /**
     * @param clientPct   the client's CPU as a share of the whole machine, in percent
     * @param serverPct   the server's likewise, NaN when unknown (a --target bench without --metrics)
     * @param clientCpus  how many of the machine's {@code cores} the client may run on
     * @param sharesCpus  whether the client and the server may run on the same CPUs
     * @param limitPct    how busy counts as saturated, in percent (of the client's CPUs, or of the machine)
     */
    public static boolean of(double clientPct, double serverPct, int clientCpus, int cores, boolean sharesCpus, int limitPct) {
        double clientOwnPct = clientPct * cores / Math.max(1, clientCpus);
        if (clientOwnPct >= limitPct) return true;
        return sharesCpus && !Double.isNaN(serverPct) && clientPct + serverPct >= limitPct;
    }
}
