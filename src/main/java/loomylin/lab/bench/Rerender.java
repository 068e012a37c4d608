package loomylin.lab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * {@code bench --rerender --out DIR} of a plain bench (a preset of {@link Preset#NAMES}, or the runs its flags listed):
 * DIR/report.md, targets.csv and the charts written again from DIR/results.csv under today's rules, measuring nothing.
 * The bench's flags are its provenance's {@code command}, read back as the bench read them, but without looking at
 * this machine (no tool located, no {@code --java} or CPU list checked, no target asked): the rerender starts nothing.
 * A side of {@code --preset jdk} is a plain bench too, whose command is the preset's, so its plan is read as the preset
 * made it.
 */
final class Rerender {
    /** How {@link Bench#main} spells the command it records: this, a space, and the arguments joined by single spaces. */
    static final String COMMAND = "java -jar loomylin.jar bench";
    /** What {@link JdkBench} adds to each side's command. */
    private static final Pattern SERVERS_ON = Pattern.compile(" \\(servers on [^()]*\\)$");
    /** The flags a rerender reads from the command line; every other is the recorded bench's own. */
    private static final Set<String> OWN = Set.of("out", "rerender", "help");

    private Rerender() {
    }

    /** {@code bench --rerender --out DIR} without a preset that re-renders on its own. */
    static Path run(Flags flags, PrintStream out) {
        for (Flags.Flag f : BenchFlags.FLAGS)
            if (!OWN.contains(f.name()) && !flags.all(f.name()).isEmpty())
                throw new UsageError("--rerender reads the bench's flags from --out's " + Provenance.FILE + "; give it --out DIR alone, not --" + f.name());
        return plain(Path.of(flags.get("out")).toAbsolutePath(), out);
    }

    /** Writes DIR's report.md, targets.csv and charts again from its results.csv and provenance.json; returns DIR. */
    static Path plain(Path dir, PrintStream out) {
        Path csv = dir.resolve("results.csv");
        Path file = dir.resolve(Provenance.FILE);
        if (!Files.isRegularFile(csv)) throw new UsageError("--rerender: no results.csv in " + dir);
        if (!Files.isRegularFile(file)) throw new UsageError("--rerender: no " + Provenance.FILE + " in " + dir + ", whose command holds the bench's flags");
        try {
            Provenance provenance;
            try {
                provenance = Provenance.read(dir);
            } catch (IllegalArgumentException e) {
                throw new UsageError("--rerender: " + file + " is not a bench's provenance: " + e.getMessage());
            }
            BenchConfig config = config(provenance.command(), file).withOut(dir);
            List<RunResult> rows;
            try {
                rows = RunResult.TABLE.read(csv);
            } catch (RuntimeException e) { // a field that does not read as its column's: one line, not a stack trace
                throw new UsageError("--rerender: " + csv + " does not read as a bench's results: " + e.getMessage());
            }
            Bench.writeSummaries(config, provenance, plan(config.runs(), rows), rows, dir, null);
            out.printf("bench: written again from %s under today's rules; %s%n", csv, dir.resolve("report.md"));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: --rerender: " + e.getMessage());
        }
    }

    /**
     * The bench of a recorded command: its arguments parsed as {@link BenchFlags} parses them, with no environment
     * (a variable the bench read is not recorded) and {@code --out} and {@code --rerender} in it ignored.
     */
    static BenchConfig config(String command, Path file) {
        String c = SERVERS_ON.matcher(command).replaceFirst("");
        if (!c.equals(COMMAND) && !c.startsWith(COMMAND + " "))
            throw new UsageError("--rerender: " + file + "'s command is not a bench's: '" + Params.printable(command) + "'");
        String[] args = c.equals(COMMAND) ? new String[0] : c.substring(COMMAND.length() + 1).split(" ", -1);
        if (args.length > 0 && Bench.COMMANDS.containsKey(args[0]))
            throw new UsageError("--rerender: " + file + "'s command is bench " + args[0] + ", an experiment with a report of its own and no --rerender");
        Flags flags;
        try {
            flags = Flags.parse(args, BenchFlags.FLAGS, Map.of());
        } catch (UsageError e) {
            throw noLongerParses(file, e);
        }
        String preset = flags.get("preset") == null ? "" : flags.get("preset").trim();
        if (!preset.isEmpty() && !Preset.NAMES.contains(preset) && !preset.equals(JdkBench.NAME) && Bench.ownRunner(preset))
            throw new UsageError("--rerender: " + file + "'s command is a --preset " + preset + " bench, not a plain one; give --preset " + preset
                    + " --rerender where it has one");
        try {
            Flags plan = preset.equals(JdkBench.NAME) ? Flags.parse(JdkBench.planArgs(flags, Path.of(flags.get("out"))), BenchFlags.FLAGS, Map.of()) : flags;
            return BenchFlags.parse(plan, true);
        } catch (UsageError e) {
            throw noLongerParses(file, e);
        }
    }

    private static UsageError noLongerParses(Path file, UsageError e) {
        return new UsageError("--rerender: " + file + "'s command no longer parses: " + e.getMessage());
    }

    /**
     * The plan the rows show: the command's plan as it reads today, in its order, where a row ran it, then every run a
     * row shows that it does not hold (a preset that changed since the bench ran), so that every row is in a table.
     */
    static List<RunSpec> plan(List<RunSpec> planned, List<RunResult> rows) {
        Set<RunSpec> ran = new LinkedHashSet<>();
        for (RunResult r : rows) ran.add(r.spec());
        List<RunSpec> out = new ArrayList<>(planned.stream().filter(ran::contains).toList());
        for (RunSpec s : ran) if (!out.contains(s)) out.add(s);
        return List.copyOf(out);
    }
}
