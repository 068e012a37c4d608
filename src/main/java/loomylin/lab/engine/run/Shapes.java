package loomylin.lab.engine.run;

import java.util.List;

/**
 * The pools the crossover grid and {@code advise} set beside {@code loom} and the user's platform pool, in one
 * place. {@link #PREFERRED} is the shape Jetty 12's programming guide prefers for blocking work: a small
 * {@code QueuedThreadPool} for Jetty's own loops whose requests run on a {@code VirtualThreadPool} capped at 200
 * tasks running at once (Jetty's default maxThreads).
 */
public final class Shapes {
    private Shapes() {
    }

    /** Jetty's preferred shape for blocking work on virtual threads. */
    public static final String PREFERRED = "qtp-vtp:8:200";

    /** The pools /mixed-async runs on in every crossover cell: a thread-per-core-ish platform pool where no thread waits. */
    public static final List<String> ASYNC = List.of("qtp:32");
}
