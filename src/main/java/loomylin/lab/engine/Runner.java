package loomylin.lab.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Progress;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.server.cli.StartupFailure;

/**
 * The one run loop of the lab, on JMH's model: an experiment says what its cells are and how to measure one, and
 * the runner owns the rest. Per invocation: the next invocation number of the CSV in {@code --out} (earlier rows
 * kept, {@link Invocations}), its provenance, then {@code rounds} rounds of every cell in order (repeats interleaved:
 * drift hits every cell alike), each run headed in servers.log, measured, its row appended to the CSV and flushed
 * as soon as it ends (a bench stopped halfway keeps what it finished), and one progress line with the time left;
 * at its end the provenance again with how long it took, and the experiment's {@link Experiment#ended} hook.
 * A run that fails to start or measure becomes the experiment's failed row, and the plan goes on.
 *
 * @param <C> a cell: what one run measures (a pool, a load, a layer...)
 * @param <R> a row: what one run measured
 */
public final class Runner<C, R> {

    /** What an experiment supplies: its cells, how one is measured, and how a run that failed reads. */
    public interface Experiment<C, R> {
        /** The cells of one round, in the order they run. */
        List<C> cells();

        /** A cell in a progress line and in servers.log, for example "bare-jetty loom". */
        String describe(C cell);

        /** Measures {@code cell} once. A {@link StartupFailure} or {@link IllegalArgumentException} makes the run a failed one. */
        R measure(C cell, Trial trial) throws IOException, InterruptedException;

        /** The row of a run of {@code cell} that measured nothing, and why. */
        R failed(C cell, Trial trial, String why);

        /** The progress line's verdict on a finished row, for example "0.412 ms CPU per answer, decides". */
        String summary(R row);

        /**
         * Called when an invocation's last run has ended, with that invocation's rows and its provenance as written
         * (how long it took included): where an experiment that writes its page as it finishes writes it. Nothing by
         * default.
         */
        default void ended(int invocation, List<R> rows, Provenance provenance) throws IOException {
        }
    }

    /**
     * One run as the runner starts it: which invocation and round, when it started and the machine's 1-minute load
     * then, and the servers' log its servers write to.
     */
    public record Trial(int invocation, int round, Instant start, double load1, Path log) {
    }

    /**
     * Where and how often: the directory and the CSV in it, the CSV's columns ({@link Table}: declared once), the
     * invocations and rounds, what the provenance names (the load generators' versions and CPU sets), the command
     * line as typed, and a sentence for the first progress line ("12 runs of 30 s, about 9 minutes").
     */
    public record Plan<R>(String name, Path dir, String csv, Table<R> table, int invocations, int rounds,
                          Map<String, String> tools, Map<String, String> cpuSets, String commandLine, String intro) {
        public Plan {
            if (invocations < 1 || rounds < 1) throw new IllegalArgumentException("a plan needs at least one invocation and one round");
            if (!table.columnNames().getFirst().equals(Invocations.COLUMN))
                throw new IllegalArgumentException("a plan's CSV starts with the " + Invocations.COLUMN + " column");
        }
    }

    /** The servers' log of every run, in the plan's directory. */
    public static final String SERVERS_LOG = "servers.log";

    private final Plan<R> plan;
    private final Experiment<C, R> experiment;
    private final PrintStream out;

    public Runner(Plan<R> plan, Experiment<C, R> experiment, PrintStream out) {
        this.plan = plan;
        this.experiment = experiment;
        this.out = out;
    }

    /** Runs the plan; the rows of every invocation this call made, in order. */
    public List<R> run() {
        List<C> cells = experiment.cells();
        if (cells.isEmpty()) throw new IllegalArgumentException("the plan has no cells");
        Path dir = plan.dir();
        Path csv = dir.resolve(plan.csv());
        Path log = dir.resolve(SERVERS_LOG);
        int perInvocation = plan.rounds() * cells.size();
        Progress progress = new Progress(plan.invocations() * perInvocation, out);
        List<R> rows = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            if (!Files.exists(log)) Files.writeString(log, "");
            for (int i = 1; i <= plan.invocations(); i++) {
                int invocation = Invocations.next(csv, plan.table().header());
                out.printf(Locale.ROOT, "bench: %s, invocation %d: %d runs (%d cells x %d rounds)%s -> %s%n", plan.name(), invocation, perInvocation,
                        cells.size(), plan.rounds(), plan.intro().isEmpty() ? "" : ", " + plan.intro(), dir);
                Provenance provenance = Provenance.collect(plan.commandLine(), dir, plan.tools(), plan.cpuSets());
                provenance.write(dir, invocation);
                long started = System.nanoTime();
                int first = rows.size();
                for (int round = 1; round <= plan.rounds(); round++) {
                    for (C cell : cells) {
                        R row = one(cell, new Trial(invocation, round, Instant.now(), FixedLoad.load1(), log));
                        Files.writeString(csv, plan.table().line(row) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                        rows.add(row);
                        out.printf(Locale.ROOT, "[%d/%d] %s round %d: %s%s%n", rows.size(), progress.total(), experiment.describe(cell), round,
                                experiment.summary(row), progress.eta(rows.size()));
                    }
                }
                provenance = provenance.finishedAfter((System.nanoTime() - started) / 1_000_000_000L);
                provenance.write(dir, invocation);
                experiment.ended(invocation, List.copyOf(rows.subList(first, rows.size())), provenance);
            }
            return rows;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    private R one(C cell, Trial trial) throws IOException {
        Files.writeString(trial.log(), "=== " + experiment.describe(cell) + " invocation " + trial.invocation() + " round " + trial.round() + "\n",
                StandardOpenOption.APPEND);
        try {
            return experiment.measure(cell, trial);
        } catch (StartupFailure | IllegalArgumentException e) {
            String why = e.getMessage();
            return experiment.failed(cell, trial, why == null || why.isBlank() ? "failed" : why);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("bench: interrupted");
        }
    }
}
