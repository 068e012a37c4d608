package loomylin.bench.run;

/** How long a measured window must be for its run to back a published result. */
public final class Windows {
    private Windows() {
    }

    /** The shortest closed-loop window, in seconds. */
    public static final int DECIDING_CLOSED_S = 20;
    /** The shortest open-loop window, in seconds. */
    public static final int DECIDING_OPEN_S = 30;

    /** Whether windows of these lengths can back a published result. */
    public static boolean decide(int measureS, int openMeasureS) {
        return measureS >= DECIDING_CLOSED_S && openMeasureS >= DECIDING_OPEN_S;
    }
}
