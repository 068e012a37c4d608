package loomylin.lab.engine.run;

/** How long a measured window must be for its run to back a published result. */
public final class Windows {
    private Windows() {
    }

    /** The shortest closed-loop window, in seconds. */
    public static final int DECIDING_CLOSED_S = 20;
    /** The shortest open-loop window, in seconds. */
    public static final int DECIDING_OPEN_S = 30;

    /**
     * A closed-loop run's window: {@code measureS}, or, where the endpoint keeps every request waiting so long that
     * a client could not get {@link RunResult#MIN_ANSWERS_PER_CLIENT} answers in it, that many waits and half as
     * much again for the connections' ramp (a 1 s wait gets 30 s). Only windows that decide grow: a smoke run
     * stays as short as it was asked to be. A server that queues (fewer threads than clients) can still leave a
     * client too few answers; that run is marked too short.
     */
    public static int closedS(int measureS, Endpoint endpoint) {
        return closedS(measureS, (long) endpoint.intParam("ms").orElse(0) + endpoint.intParam("sleep").orElse(0));
    }

    /** {@link #closedS(int, Endpoint)} for a request that takes at least {@code waitMs} however fast the server is. */
    public static int closedS(int measureS, long waitMs) {
        if (measureS < DECIDING_CLOSED_S) return measureS;
        int needed = (int) Math.ceil(RunResult.MIN_ANSWERS_PER_CLIENT * waitMs * 1.5 / 1000.0);
        return Math.max(measureS, needed);
    }

    /** Whether windows of these lengths can back a published result. */
    public static boolean decide(int measureS, int openMeasureS) {
        return measureS >= DECIDING_CLOSED_S && openMeasureS >= DECIDING_OPEN_S;
    }
}
