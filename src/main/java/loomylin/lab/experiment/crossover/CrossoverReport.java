package loomylin.lab.experiment.crossover;

import loomylin.lab.engine.run.FixedLoad;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import loomylin.lab.experiment.crossover.Crossover.Phase;
import loomylin.lab.experiment.crossover.Crossover.Role;
import loomylin.lab.experiment.crossover.Crossover.Row;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Spread;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;

/**
 * crossover.md from crossover.csv. Only runs that decide ({@link FixedLoad.Window#decides}) enter a figure; the
 * others are counted with their marks. The noise line of each metric is the widest A/A spread across invocations
 * (one pool's median of a cell in one invocation against its median in another); a ratio within it reads as a tie. A comparison is decided
 * when each side has at least {@link #MIN_RUNS} deciding runs from at least two invocations.
 */
public final class CrossoverReport {
    public static final int MIN_RUNS = 3;
    /** The sweep's pick: the cheapest deciding pool whose p99 is within this many times the lowest deciding p99. */
    public static final double P99_SLACK = 1.5;

    private CrossoverReport() {
    }

    /** A figure the pools are compared on, lower is better. */
    public enum Metric {
        CPU("CPU per answer", Row::cpuMs), P99("p99", r -> r.w().p99Ms());

        public final String title;
        final ToDoubleFunction<Row> value;

        Metric(String title, ToDoubleFunction<Row> value) {
            this.title = title;
            this.value = value;
        }
    }

    /** Writes crossover.md from {@code dir}'s crossover.csv; measures nothing. */
    static Path rerender(Path dir, PrintStream out) {
        Path csv = dir.resolve(Crossover.CSV);
        if (!Files.exists(csv)) throw new UsageError("--rerender: no " + Crossover.CSV + " in " + dir);
        List<Row> rows;
        try {
            rows = Row.TABLE.read(csv);
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new UsageError(csv + " cannot be read as the crossover's results: " + e.getMessage());
        }
        try {
            Files.writeString(dir.resolve(Crossover.REPORT), report(rows));
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
        out.println(sentence(rows));
        out.printf("bench: %s written from %d runs in %s%n", dir.resolve(Crossover.REPORT), rows.size(), csv);
        return dir;
    }

    /** The sweep's pick for a cell: the cheapest deciding sweep run whose p99 is within {@link #P99_SLACK} of the best; empty when none decided. */
    public static Optional<PoolKind> best(List<Row> rows, Grid.Cell cell) {
        List<Row> deciding = rows.stream().filter(r -> r.phase() == Phase.SWEEP && r.cell().equals(cell) && r.decides()).toList();
        double lowest = deciding.stream().mapToDouble(r -> r.w().p99Ms()).min().orElse(Double.NaN);
        return deciding.stream().filter(r -> r.w().p99Ms() <= P99_SLACK * lowest).min(Comparator.comparingDouble(Row::cpuMs)).map(Row::pool);
    }

    /**
     * The widest A/A spread of a metric across invocations: for every cell, role and pool measured in two or more
     * invocations, its deciding comparison runs' median in each invocation, larger over smaller, less one; NaN when
     * no pool was measured in two invocations. Within one invocation runs minutes apart agree more closely than
     * invocations do (the same pool's median moved 6-8 % between invocations while its rounds agreed within one), so
     * a line drawn within one would call differences ties too rarely.
     */
    public static double noise(List<Row> rows, Metric metric) {
        double widest = Double.NaN;
        for (List<Double> medians : invocationMedians(rows, metric).values()) {
            if (medians.size() < 2) continue;
            double spread = medians.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
                    / medians.stream().mapToDouble(Double::doubleValue).min().orElseThrow() - 1;
            if (Double.isNaN(widest) || spread > widest) widest = spread;
        }
        return widest;
    }

    /** Per cell, role and pool (in the rows' order): its deciding comparison runs' median of {@code metric} in each invocation that has one. */
    static java.util.Map<String, List<Double>> invocationMedians(List<Row> rows, Metric metric) {
        java.util.Map<String, java.util.Map<Integer, List<Double>>> groups = new java.util.LinkedHashMap<>();
        for (Row r : rows) {
            if (r.phase() != Phase.COMPARE || !r.decides()) continue;
            groups.computeIfAbsent(r.cell() + " " + r.role() + " " + r.pool(), k -> new java.util.TreeMap<>())
                    .computeIfAbsent(r.invocation(), k -> new ArrayList<>()).add(metric.value.applyAsDouble(r));
        }
        java.util.Map<String, List<Double>> out = new java.util.LinkedHashMap<>();
        groups.forEach((key, byInvocation) -> out.put(key, byInvocation.values().stream().map(v -> Spread.of(v).median()).toList()));
        return out;
    }

    /** The comparison runs of a cell that stand for {@code role}: the sweep's pick is {@code qtp:200}'s runs when the sweep picked it. */
    static List<Row> runs(List<Row> rows, Grid.Cell cell, Role role, PoolKind virtual) {
        List<Row> of = rows.stream().filter(r -> r.phase() == Phase.COMPARE && r.cell().equals(cell) && r.role() == role
                && (role != Role.VIRTUAL || r.pool().equals(virtual))).toList();
        if (role == Role.BEST && of.isEmpty()) return runs(rows, cell, Role.DEFAULT, virtual);
        return of;
    }

    /** A comparison of {@code virtual}'s runs with another role's on one metric: the ratio of medians and how it reads. */
    record Verdict(double ratio, String reading, boolean decided) {
    }

    static Verdict verdict(List<Row> mine, List<Row> theirs, Metric metric, double noise) {
        List<Row> a = mine.stream().filter(Row::decides).toList();
        List<Row> b = theirs.stream().filter(Row::decides).toList();
        double ratio = a.isEmpty() || b.isEmpty() ? Double.NaN : spread(a, metric.value).median() / spread(b, metric.value).median();
        if (a.size() < MIN_RUNS || b.size() < MIN_RUNS || invocations(a) < 2 || invocations(b) < 2)
            return new Verdict(ratio, String.format(Locale.ROOT, "undecided (%d and %d deciding runs from %d and %d invocations)", a.size(), b.size(),
                    invocations(a), invocations(b)), false);
        if (Double.isNaN(noise)) return new Verdict(ratio, "undecided (no pool measured in two invocations to read the noise from)", false);
        if (ratio * (1 + noise) <= 1) return new Verdict(ratio, "virtual threads lower", true);
        if (ratio >= 1 + noise) return new Verdict(ratio, "virtual threads higher", true);
        return new Verdict(ratio, "a tie", true);
    }

    private static long invocations(List<Row> rows) {
        return rows.stream().mapToInt(Row::invocation).distinct().count();
    }

    static String report(List<Row> rows) {
        List<Grid.Cell> cells = rows.stream().map(Row::cell).distinct().toList();
        List<PoolKind> virtual = rows.stream().filter(r -> r.role() == Role.VIRTUAL).map(Row::pool).distinct().toList();
        int invocations = rows.stream().mapToInt(Row::invocation).max().orElse(0);
        double cpuNoise = noise(rows, Metric.CPU);
        double p99Noise = noise(rows, Metric.P99);
        StringBuilder md = new StringBuilder("# The crossover: where virtual threads pay off, by cost at a fixed load\n\n");
        md.append(String.format(Locale.ROOT, "%d runs from %d invocation(s), each invocation's command and machine in its provenance file (%s). ", rows.size(),
                invocations, String.join(", ", IntStream.rangeClosed(1, Math.max(1, invocations)).mapToObj(Invocations::provenanceFile).toList())));
        md.append(String.format(Locale.ROOT, "Each cell is what a request does (`cpuN`: N ms of SHA-256 work; `sleepN`: a sleep of N ms; `callN`: one blocking HTTP"
                + " call to the backend, which answers after N ms) and is offered one open-loop rate by oha, the same to every pool. Every run is a fresh"
                + " server JVM: warm-up slices at that rate until two in a row cost the same CPU per answer within %.0f %% (%d to %d slices), an idle"
                + " pause (comparison runs), then the window. CPU per answer is the server JVM's CPU over the window over its answers. A run decides"
                + " when it settled, answered at least %.0f %% of what was offered as fast as it was offered, had no error and the client was not the"
                + " limit; the others are counted with their marks and left out of every figure. A sweep of platform pools picks, per cell, the"
                + " cheapest deciding pool whose p99 is within %.1fx of the lowest (*best*); the comparison then runs the virtual-thread pools,"
                + " `qtp:200` (a fixed pool of 200 threads: Jetty's default maximum, pre-started) and the pick, twice per invocation.%s%n%n",
                100 * FixedLoad.SETTLE_SHARE, FixedLoad.MIN_SLICES, FixedLoad.MAX_SLICES, 100 * FixedLoad.RATE_MET_SHARE, P99_SLACK,
                FixedLoad.jitRule(rows.stream().anyMatch(r -> r.w().jit().warm() != null))));
        md.append(sentence(rows)).append("\n\n");

        md.append("## The noise line\n\n");
        md.append("A/A across invocations: each pool of each cell measured in two or more invocations, its deciding runs' median in each;"
                + " the widest spread between an A/A pair of invocation medians (larger over smaller, less one) is the line within which a ratio reads as a tie.\n\n");
        md.append("| metric | pools measured in 2+ invocations | median spread | widest spread (the noise line) |\n|---|---|---|---|\n");
        for (Metric m : Metric.values()) {
            List<Double> spreads = invocationMedians(rows, m).values().stream().filter(v -> v.size() >= 2)
                    .map(v -> v.stream().mapToDouble(Double::doubleValue).max().orElseThrow() / v.stream().mapToDouble(Double::doubleValue).min().orElseThrow() - 1)
                    .toList();
            Spread s = Spread.of(spreads);
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s |%n", m.title, s.count(), percent(s.median()), percent(s.max())));
        }

        md.append("\n## The sweep: which platform pool a user would size for the load\n\n");
        md.append("| cell | offered req/s | connections | pool | CPU ms/answer | 2xx p99 ms | decides | picked |\n|---|---|---|---|---|---|---|---|\n");
        for (Grid.Cell cell : cells) {
            Optional<PoolKind> best = best(rows, cell);
            for (Row r : rows.stream().filter(r -> r.phase() == Phase.SWEEP && r.cell().equals(cell)).toList()) {
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | `%s` | %s | %s | %s | %s |%n", cell.label(), r.w().offeredRps(), r.connections(),
                        r.pool(), loomylin.lab.engine.result.Column.fixed(r.cpuMs(), 4), loomylin.lab.engine.result.Column.fixed(r.w().p99Ms(), 1),
                        r.failed() ? "failed: " + r.failure() : r.decides() ? "yes" : "no: " + String.join(", ", r.w().marks()),
                        best.isPresent() && best.get().equals(r.pool()) ? "**best**" : ""));
            }
        }

        md.append("\n## Each pool at the cell's load\n\n");
        md.append("Median (range) over deciding runs.\n\n");
        md.append("| cell | offered req/s | pool | role | CPU ms/answer | idle CPU ms/s | 2xx p99 ms | 2xx p99.9 ms | deciding runs | not deciding |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Grid.Cell cell : cells) {
            List<Row> compare = rows.stream().filter(r -> r.phase() == Phase.COMPARE && r.cell().equals(cell)).toList();
            List<String> done = new ArrayList<>();
            for (Row first : compare) {
                String key = first.role() + " " + first.pool();
                if (done.contains(key)) continue;
                done.add(key);
                List<Row> all = compare.stream().filter(r -> r.role() == first.role() && r.pool().equals(first.pool())).toList();
                List<Row> deciding = all.stream().filter(Row::decides).toList();
                md.append(String.format(Locale.ROOT, "| %s | %d | `%s` | %s | %s | %s | %s | %s | %d of %d (%d invocations) | %s |%n", cell.label(),
                        first.w().offeredRps(), first.pool(), first.role().label, spread(deciding, Row::cpuMs).text(4),
                        spread(deciding, r -> r.w().idleCpuMsPerS()).text(1), spread(deciding, r -> r.w().p99Ms()).text(1),
                        spread(deciding, r -> r.w().p999Ms()).text(1), deciding.size(), all.size(), invocations(deciding),
                        marks(all.stream().filter(Row::failed).count(), all.stream().filter(r -> !r.failed()).map(Row::w).toList())));
            }
        }

        md.append(String.format(Locale.ROOT, "%n## Virtual threads against the platform pools%n%nThe ratio of medians (virtual threads over the other pool; below 1 is"
                + " cheaper or faster), read against the noise line: CPU per answer %s, p99 %s. Decided with at least %d deciding runs on each side from"
                + " at least two invocations.%n%n", percent(cpuNoise), percent(p99Noise), MIN_RUNS));
        md.append("| cell | pool | against | CPU per answer | reads | p99 | reads |\n|---|---|---|---|---|---|---|\n");
        for (Grid.Cell cell : cells) {
            for (PoolKind v : virtual) {
                List<Row> mine = runs(rows, cell, Role.VIRTUAL, v);
                if (mine.isEmpty()) continue;
                for (Role against : List.of(Role.BEST, Role.DEFAULT)) {
                    List<Row> theirs = runs(rows, cell, against, v);
                    if (theirs.isEmpty()) continue;
                    Verdict cpu = verdict(mine, theirs, Metric.CPU, cpuNoise);
                    Verdict p99 = verdict(mine, theirs, Metric.P99, p99Noise);
                    md.append(String.format(Locale.ROOT, "| %s | `%s` | %s `%s` | %s | %s | %s | %s |%n", cell.label(), v,
                            against == Role.BEST ? "best" : "default", theirs.getFirst().pool(), ratio(cpu.ratio()), cpu.reading(), ratio(p99.ratio()),
                            p99.reading()));
                }
            }
        }
        return md.toString();
    }

    /** The report's one paragraph, starting "Crossover:": per cell, the first virtual-thread pool against the sweep's pick. */
    static String sentence(List<Row> rows) {
        List<Grid.Cell> cells = rows.stream().map(Row::cell).distinct().toList();
        Optional<PoolKind> virtual = rows.stream().filter(r -> r.role() == Role.VIRTUAL).map(Row::pool).findFirst();
        double cpuNoise = noise(rows, Metric.CPU);
        double p99Noise = noise(rows, Metric.P99);
        List<String> decided = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        for (Grid.Cell cell : cells) {
            if (virtual.isEmpty()) break;
            List<Row> mine = runs(rows, cell, Role.VIRTUAL, virtual.get());
            List<Row> theirs = runs(rows, cell, Role.BEST, virtual.get());
            if (mine.isEmpty() || theirs.isEmpty()) continue;
            Verdict cpu = verdict(mine, theirs, Metric.CPU, cpuNoise);
            Verdict p99 = verdict(mine, theirs, Metric.P99, p99Noise);
            if (!cpu.decided() && !p99.decided()) {
                undecided.add(cell.label());
                continue;
            }
            decided.add(String.format(Locale.ROOT, "with %s (against `%s`), %s the CPU per answer (%s) at %s the p99 (%s)", cell.label(), theirs.getFirst().pool(),
                    ratio(cpu.ratio()), short_(cpu), ratio(p99.ratio()), short_(p99)));
        }
        if (virtual.isEmpty()) return "Crossover: no virtual-thread pool was measured.";
        String head = "Crossover: at a fixed load well inside the machine, `" + virtual.get() + "` against the platform pool a sweep picked for that load: ";
        String body = decided.isEmpty() ? "no decided cell" : String.join("; ", decided);
        return head + body + (undecided.isEmpty() ? "." : "; undecided with " + String.join(", ", undecided) + " (too few deciding runs).")
                + String.format(Locale.ROOT, " A tie is within the widest A/A spread: %s for CPU per answer, %s for p99.", percent(cpuNoise), percent(p99Noise));
    }

    private static String short_(Verdict v) {
        return v.decided() ? v.reading() : "undecided";
    }

    /** "2 failed, 1 unsettled, 3 client-limited", or "-". */
    static String marks(long failed, List<FixedLoad.Window> measured) {
        List<String> order = List.of("no answers", "unsettled", "client-limited", "missed the rate", "with errors");
        List<String> marks = new ArrayList<>();
        if (failed > 0) marks.add(failed + " failed");
        for (String mark : order) {
            long n = measured.stream().filter(w -> w.marks().contains(mark)).count();
            if (n > 0) marks.add(n + " " + mark);
        }
        return marks.isEmpty() ? "-" : String.join(", ", marks);
    }

    private static Spread spread(List<Row> rows, ToDoubleFunction<Row> f) {
        return Spread.of(rows.stream().map(f::applyAsDouble).filter(d -> !Double.isNaN(d)).toList());
    }

    private static String ratio(double r) {
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2fx", r);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * share);
    }
}
