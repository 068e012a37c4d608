package loomylin.lab.bench;

import java.util.List;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.RunSpec;
import loomylin.lab.engine.run.Windows;

/**
 * How long a plan takes: per run, a server JVM's start and stop, the warm-up and the measured window. A hey run's
 * window is what the warm-up achieved in the measured seconds, so the same estimate holds for it.
 */
final class Estimate {
    /** A server JVM's start, its settle and its stop, on 2 cores. */
    static final int PER_RUN_OVERHEAD_S = 4;

    private Estimate() {
    }

    static long minutes(List<RunSpec> plan, BenchConfig config) {
        return minutes(plan, config.warmup(), config.measureS(), config.openMeasureS());
    }

    static long minutes(List<RunSpec> plan, String warmup, int measureS, int openMeasureS) {
        long warmupS = loomylin.lab.engine.run.RunExecutor.warmupSeconds(warmup);
        long seconds = 0;
        for (RunSpec run : plan) seconds += PER_RUN_OVERHEAD_S + warmupS + (run.open() ? openMeasureS : Windows.closedS(measureS, run.endpoint()));
        return (seconds + 59) / 60;
    }

    static long minutes(Preset preset) {
        return minutes(Plan.of(preset, Plan.Overrides.NONE), preset.warmup(), preset.measureS(), preset.openMeasureS()) * preset.invocations();
    }
}
