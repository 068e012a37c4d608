package loomylin.lab.engine;

import loomylin.server.cli.Whole;
import picocli.CommandLine.Option;

/**
 * {@code --repeat}, declared once: a mixin of every experiment whose rows tell its rounds apart (an experiment that
 * keeps one row per cell, such as seed004, leaves it out, so that the flag is refused there rather than misread).
 */
public final class RepeatFlag {
    @Option(names = "--repeat", paramLabel = "K", description = "rounds of every cell in an invocation, interleaved so that a drift of the machine falls on all alike (default: the experiment's)")
    @Whole(min = 1, max = 20)
    Integer repeat;

    /** The rounds asked for, else {@code fallback}. */
    public int rounds(int fallback) {
        return repeat == null ? fallback : repeat;
    }
}
