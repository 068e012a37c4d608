package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.run.FixedLoad;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import loomylin.lab.experiment.crossover.Floor.Layer;
import loomylin.lab.experiment.crossover.Floor.Row;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Spread;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;

/**
 * floor.md from floor.csv: per pool, each layer's CPU per answer from the runs that decide, what each step adds,
 * and whether Loomylin's request stays within {@link #GOAL} of a bare Javalin route's. A step or a ratio is taken
 * per round, from two runs of the same invocation and round that both decide; the goal is decided when at least
 * {@link #MIN_PAIRS} such pairs come from at least two invocations.
 */
public final class FloorReport {
    /** Loomylin's no-wait request may cost at most this many times a bare Javalin route's CPU per answer. */
    public static final double GOAL = 1.10;
    public static final int MIN_PAIRS = 3;

    private FloorReport() {
    }

    /** Writes floor.md again from {@code dir}'s floor.csv; measures nothing. */
    static Path rerender(Path dir, String commandLine, PrintStream out) {
        Path csv = dir.resolve(Floor.CSV);
        if (!Files.exists(csv)) throw new UsageError("--rerender: no " + Floor.CSV + " in " + dir);
        try {
            List<Row> rows = Row.TABLE.read(csv);
            Files.writeString(dir.resolve(Floor.REPORT), report(rows));
            out.printf("bench: %s written from %d runs in %s%n", dir.resolve(Floor.REPORT), rows.size(), csv);
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new UsageError(csv + " cannot be read as the floor's results: " + e.getMessage());
        }
    }

    static String report(List<Row> rows) {
        List<PoolKind> pools = rows.stream().map(Row::pool).distinct().toList();
        List<Layer> layers = java.util.Arrays.stream(Layer.values()).filter(l -> rows.stream().anyMatch(r -> r.layer() == l)).toList();
        int invocations = rows.stream().mapToInt(Row::invocation).max().orElse(0);
        StringBuilder md = new StringBuilder("# The floor: what each layer under a Loomylin request costs\n\n");
        md.append(String.format(Locale.ROOT, "%d runs from %d invocation(s), each invocation's command and machine in its provenance file (%s). ",
                rows.size(), invocations, String.join(", ", java.util.stream.IntStream.rangeClosed(1, Math.max(1, invocations))
                        .mapToObj(Invocations::provenanceFile).toList())));
        Row any = rows.isEmpty() ? null : rows.get(0);
        md.append(String.format(Locale.ROOT, "The same request, `%s` (no sleep, no yield), on each layer and pool: oha open loop at %s req/s over %d"
                        + " connections, a fresh server JVM per run, warm-up slices of %d s at that rate until two in a row cost the same CPU per answer"
                        + " within %.0f %% (%d to %d slices), %d s idle, then the window. CPU per answer is the server JVM's CPU over the window (from"
                        + " /proc) over its answers; *less idle* subtracts what the same JVM spent idle just before, over as long. A run decides when it"
                        + " settled, answered at least %.0f %% of the offered requests with no error, and the client was not the limit; the others are"
                        + " counted in the last column and left out of every figure.%s%n%n",
                Floor.LOOMYLIN_ENDPOINT, any == null ? "-" : Integer.toString(any.w().offeredRps()), Floor.CONNECTIONS, Floor.SLICE.toSeconds(),
                100 * FixedLoad.SETTLE_SHARE, FixedLoad.MIN_SLICES, FixedLoad.MAX_SLICES, Floor.IDLE.toSeconds(), 100 * FixedLoad.RATE_MET_SHARE,
                FixedLoad.jitRule(rows.stream().anyMatch(r -> r.w().jit().warm() != null))));
        md.append("## Each layer\n\n");
        md.append("| pool | layer | CPU ms/answer, less idle | CPU ms/answer | idle CPU ms/s | 2xx p99 ms | deciding runs | not deciding |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        for (PoolKind pool : pools) {
            for (Layer layer : layers) {
                List<Row> all = rows.stream().filter(r -> r.pool().equals(pool) && r.layer() == layer).toList();
                List<Row> deciding = all.stream().filter(Row::decides).toList();
                md.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s | %s | %d of %d | %s |%n", pool, layer.label,
                        spread(deciding, Row::netCpuMsPerRequest).text(5), spread(deciding, Row::cpuMsPerRequest).text(5),
                        spread(deciding, r -> r.w().idleCpuMsPerS()).text(1), spread(deciding, r -> r.w().p99Ms()).text(2), deciding.size(), all.size(), marks(all)));
            }
        }
        md.append("\n## What each step adds, and the goal\n\n");
        md.append(String.format(Locale.ROOT, "Per round (the same invocation and round, both runs deciding), CPU ms per answer less idle: Loomylin's connector"
                + " and HTTP configuration over a bare Jetty Handler's, Javalin over it, and a Loomylin server over a bare Javalin route (its handlers,"
                + " its connector and its route together); the header cache is `--header-cache %d` against the default. The goal: Loomylin's request"
                + " at most %.2fx bare Javalin's, decided on at least %d rounds from 2 invocations (median, range over the rounds).%n%n",
                Floor.CACHE_LAYER_HEADER_CACHE, GOAL, MIN_PAIRS));
        md.append("| pool | connector adds | Javalin adds | Loomylin adds over bare Javalin | header cache changes | Loomylin / bare Javalin | goal |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (PoolKind pool : pools) {
            List<double[]> loomylinOverJavalin = pairs(rows, pool, Layer.LOOMYLIN, Layer.JAVALIN);
            md.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s | %s | %s |%n", pool,
                    difference(pairs(rows, pool, Layer.CONNECTOR, Layer.JETTY)), difference(pairs(rows, pool, Layer.JAVALIN, Layer.JETTY)),
                    difference(loomylinOverJavalin), difference(pairs(rows, pool, Layer.LOOMYLIN_CACHE, Layer.LOOMYLIN)),
                    ratio(loomylinOverJavalin), goal(rows, pool)));
        }
        if (rows.stream().anyMatch(r -> r.w().owners() != null && !r.w().owners().isEmpty())) {
            md.append("\n## Whose code the CPU samples ran in (`--jfr`)\n\n");
            md.append("Each window's JFR execution samples charged to the innermost Loomylin, Javalin or Jetty frame on the stack (a JDK method to its"
                    + " caller); a sampled view of the Java threads only, not the JIT or the garbage collector.\n\n");
            md.append("| pool | layer | invocation | round | samples by owner | Loomylin's busiest methods |\n|---|---|---|---|---|---|\n");
            for (Row r : rows) {
                if (r.w().owners() == null || r.w().owners().isEmpty()) continue;
                md.append(String.format(Locale.ROOT, "| `%s` | %s | %d | %d | %s | %s |%n", r.pool(), r.layer().label, r.invocation(), r.round(),
                        r.w().owners(), r.w().topLoomylin().isEmpty() ? "-" : r.w().topLoomylin()));
            }
        }
        return md.toString();
    }

    /** The goal's verdict for a pool: decided within or past it, or undecided with why. */
    static String goal(List<Row> rows, PoolKind pool) {
        List<double[]> pairs = pairs(rows, pool, Layer.LOOMYLIN, Layer.JAVALIN);
        long invocations = pairs.stream().mapToDouble(p -> p[2]).distinct().count();
        if (pairs.size() < MIN_PAIRS || invocations < 2)
            return String.format(Locale.ROOT, "undecided (%d deciding rounds from %d invocation(s))", pairs.size(), invocations);
        double median = Spread.of(pairs.stream().map(p -> p[0] / p[1]).toList()).median();
        return median <= GOAL ? String.format(Locale.ROOT, "within %.2fx", GOAL) : String.format(Locale.ROOT, "past %.2fx", GOAL);
    }

    /** Per (invocation, round) where both layers decided: {upper's, lower's, invocation}. */
    static List<double[]> pairs(List<Row> rows, PoolKind pool, Layer upper, Layer lower) {
        List<double[]> out = new ArrayList<>();
        for (Row u : rows) {
            if (!u.pool().equals(pool) || u.layer() != upper || !u.decides()) continue;
            rows.stream().filter(l -> l.pool().equals(pool) && l.layer() == lower && l.decides() && l.invocation() == u.invocation() && l.round() == u.round())
                    .findFirst().ifPresent(l -> out.add(new double[] {u.netCpuMsPerRequest(), l.netCpuMsPerRequest(), u.invocation()}));
        }
        return out;
    }

    private static String difference(List<double[]> pairs) {
        return pairs.isEmpty() ? "-" : Spread.of(pairs.stream().map(p -> p[0] - p[1]).toList()).text(5) + " (" + pairs.size() + ")";
    }

    private static String ratio(List<double[]> pairs) {
        if (pairs.isEmpty()) return "-";
        Spread s = Spread.of(pairs.stream().map(p -> p[0] / p[1]).toList());
        return String.format(Locale.ROOT, "%.2fx (%.2f-%.2f, %d)", s.median(), s.min(), s.max(), s.count());
    }

    private static String marks(List<Row> runs) {
        long failed = runs.stream().filter(Row::failed).count();
        return CrossoverReport.marks(failed, runs.stream().filter(r -> !r.failed()).map(Row::w).toList());
    }

    private static Spread spread(List<Row> rows, ToDoubleFunction<Row> f) {
        return Spread.of(rows.stream().map(r -> f.applyAsDouble(r)).filter(d -> !Double.isNaN(d)).toList());
    }
}
