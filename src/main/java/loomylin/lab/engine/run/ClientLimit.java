package loomylin.lab.engine.run;

/**
 * Whether the server may not have been what limited a run. On a machine the client shares with the server, a
 * load generator that needs CPU takes it from the server, so there are two ways the server's figures stop being
 * the server's alone: the client kept busy nearly all the CPUs it may use, or client and server together kept
 * nearly the whole machine busy (a CPU-bound cell, where every cycle the client spends is one the server lacks).
 * Either marks the run {@code client_limited}: its throughput is a floor for the server, not its capacity. A run
 * whose machine was busy as a whole, client, server and everything else together, is marked {@code machine_full}
 * ({@link #machineFull}) where the machine's busy share was recorded.
 */
public final class ClientLimit {
    /** How busy, in percent, counts as saturated where an experiment takes no {@code --client-limit}. */
    public static final int DEFAULT_PCT = 90;

    private ClientLimit() {
    }

    /**
     * Whether the machine was full: client, server and the rest of it (the bench's own JVM, the kernel, anything
     * else) kept at least {@code limitPct} of all its CPUs busy ({@code busyPct}, from /proc/stat), so that no
     * figure of the run was the server's alone. Where the client shares the server's CPUs this is the client-limited
     * rule's second half with the rest of the machine counted too.
     */
    public static boolean machineFull(double busyPct, int limitPct) {
        return busyPct >= limitPct;
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
