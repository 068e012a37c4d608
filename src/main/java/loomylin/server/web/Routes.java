package loomylin.server.web;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The routes every Loomylin server serves, written once: both twins register exactly these paths (a test
 * checks it), and the help text, the 404 answer and the bench read them from here.
 */
public final class Routes {
    private Routes() {
    }

    public static final String COMPUTATIONAL = "/computational";
    public static final String WAIT_BLOCKING = "/wait-blocking";
    public static final String WAIT_ASYNC = "/wait-async";
    public static final String WAIT_LOCKED = "/wait-locked";
    public static final String HOPS_BLOCKING = "/hops-blocking";
    public static final String HOPS_ASYNC = "/hops-async";
    public static final String MIXED = "/mixed";
    public static final String MIXED_ASYNC = "/mixed-async";
    public static final String DB_BLOCKING = "/db-blocking";
    public static final String DB_ASYNC = "/db-async";
    public static final String POOL = "/pool";

    /** Every route, in the order the help lists them. */
    public static final List<String> ALL = List.of(COMPUTATIONAL, WAIT_BLOCKING, WAIT_ASYNC, WAIT_LOCKED, HOPS_BLOCKING, HOPS_ASYNC, MIXED, MIXED_ASYNC, DB_BLOCKING, DB_ASYNC, POOL);

    /** The routes that do work, the ones a load test may aim at ({@link #POOL} only reports). */
    public static final List<String> WORKLOADS = ALL.stream().filter(r -> !r.equals(POOL)).toList();

    /** "/computational, /wait-blocking, ...", as the 404 answer lists them. */
    public static String listing() {
        return String.join(", ", ALL);
    }

    /** The workload routes without their slash: computational, wait-blocking, ... */
    public static List<String> workloadNames() {
        return WORKLOADS.stream().map(r -> r.substring(1)).collect(Collectors.toUnmodifiableList());
    }
}
