package loomylin.lab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import loomylin.lab.experiment.bound.Bound;
import loomylin.lab.engine.ExperimentCommand;
import loomylin.lab.experiment.connections.ConnectionsBench;
import loomylin.lab.experiment.connections.ConnectionsCommand;
import loomylin.lab.experiment.fibers.FibersExperiments;
import loomylin.lab.experiment.fibers.Seed004Command;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;
import loomylin.lab.engine.output.Charts;
import loomylin.lab.engine.output.Machine;
import loomylin.lab.engine.output.Progress;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.output.Report;
import loomylin.lab.engine.output.ResultsCsv;
import loomylin.lab.engine.output.Targets;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.CpuSets;
import loomylin.lab.engine.run.DescriptorCheck;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.RemoteRunExecutor;
import loomylin.lab.engine.run.RunExecutor;
import loomylin.lab.engine.run.RunMaker;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * {@code loomylin bench}: {@code bench NAME [flags]} hands an experiment that owns its flags to its command ({@link #COMMANDS});
 * otherwise it runs the plan of a preset (or of the flags) one run at a time, each against a fresh server JVM, and
 * writes results.csv as it goes (a row per repeat), then report.md, targets.csv and the charts.
 * A run that fails stops the bench; what finished before it is still written, and the exit status is 1.
 */
public final class Bench {
    private Bench() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && !args[0].startsWith("-")) {
            command(args, System.getenv(), System.out);
            return;
        }
        Flags flags = Flags.parse(args, BenchFlags.FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print(BenchFlags.help());
            return;
        }
        String commandLine = Rerender.COMMAND + " " + String.join(" ", args);
        String preset = flags.get("preset") == null ? "" : flags.get("preset").trim();
        if (COMMANDS.containsKey(preset)) throw new UsageError(moved(preset, args));
        if (flags.get(BenchFlags.JAVA) != null && !JdkBench.NAME.equals(preset) && !flags.on("rerender")) loomylin.lab.engine.run.ServerJava.choose(flags.get(BenchFlags.JAVA));
        OwnRunner own = OWN_RUNNERS.get(preset);
        if (own != null) {
            BenchFlags.only(flags, preset, own.flags());
            own.run().run(flags, commandLine, System.out);
            return;
        }
        if (flags.on("rerender")) { // a plain bench's report from its results and provenance: nothing is started
            Rerender.run(flags, System.out);
            return;
        }
        run(BenchFlags.parse(flags), commandLine, System.out);
    }

    /** Whether {@code preset} has a runner of its own, not the plan of a plain bench (or was one before it became a command). */
    static boolean ownRunner(String preset) {
        return OWN_RUNNERS.containsKey(preset) || COMMANDS.containsKey(preset);
    }

    /** The experiments that own their flags, {@code bench NAME [flags]}, by name. */
    static final Map<String, Supplier<ExperimentCommand>> COMMANDS = new TreeMap<>(Map.of(
            ConnectionsBench.NAME, ConnectionsCommand::new, FibersExperiments.NAME, Seed004Command::new));

    /** {@code bench NAME [flags]}: the experiment's command reads its own flags (each mistake one line), then runs; null after --help. */
    static Path command(String[] args, Map<String, String> env, PrintStream out) {
        Supplier<ExperimentCommand> made = COMMANDS.get(args[0]);
        if (made == null) throw new UsageError("bench has no experiment '" + Params.printable(args[0]) + "'; its commands are " + String.join(", ", COMMANDS.keySet())
                + ", the other experiments are --preset NAME");
        ExperimentCommand command = made.get();
        if (CommandLines.parse(command, Arrays.copyOfRange(args, 1, args.length), env)) {
            out.print("Usage: " + Rerender.COMMAND + " " + args[0] + " [flags]\n\n" + command.about()
                    + "\n\nFlags (each also settable by the environment variable shown):\n" + CommandLines.flagTable(command));
            return null;
        }
        Flags.requireProc("the bench");
        return command.run(Rerender.COMMAND + " " + String.join(" ", args), out);
    }

    /** The one line for a --preset that became a command: the command line to type instead. */
    private static String moved(String preset, String[] args) {
        List<String> now = new ArrayList<>(List.of(Rerender.COMMAND, preset));
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--preset")) i++;
            else if (!args[i].startsWith("--preset=")) now.add(args[i]);
        }
        return "--preset " + preset + " is a command of its own now: " + String.join(" ", now);
    }

    /** A preset with a runner of its own, and the bench flags it reads (any other is refused in one line). */
    private record OwnRunner(java.util.Set<String> flags, Runner run) {
    }

    @FunctionalInterface
    private interface Runner {
        Path run(Flags flags, String commandLine, PrintStream out);
    }

    private static final Map<String, OwnRunner> OWN_RUNNERS = Map.of(
            loomylin.lab.experiment.crossover.Crossover.NAME, new OwnRunner(loomylin.lab.experiment.crossover.Crossover.FLAGS, loomylin.lab.experiment.crossover.Crossover::run),
            loomylin.lab.experiment.crossover.Floor.NAME, new OwnRunner(loomylin.lab.experiment.crossover.Floor.FLAGS, loomylin.lab.experiment.crossover.Floor::run),
            JdkBench.NAME, new OwnRunner(JdkBench.FLAGS, JdkBench::run),
            loomylin.lab.experiment.bound.AdmissionBench.NAME, new OwnRunner(loomylin.lab.experiment.bound.AdmissionBench.FLAGS, loomylin.lab.experiment.bound.AdmissionBench::run),
            loomylin.lab.experiment.bound.DbBench.NAME, new OwnRunner(loomylin.lab.experiment.bound.DbBench.FLAGS, loomylin.lab.experiment.bound.DbBench::run),
            Bound.NAME, new OwnRunner(Bound.FLAGS, Bound::run));

    /** Runs the bench; returns the output directory, or throws StartupFailure after writing what finished. */
    public static Path run(BenchConfig config, String commandLine, PrintStream out) {
        loomylin.server.cli.Flags.requireProc("the bench");
        Map<Client, Path> tools = new EnumMap<>(Client.class);
        for (Client c : Client.values()) if (RunSpec.uses(config.runs(), c)) tools.put(c, ClientBinary.locate(c, config.tools().get(c)));
        // the backend's JIT is run in by wrk before the first /hops-* run
        if (config.remote() == null && config.runs().stream().anyMatch(r -> r.endpoint().usesBackend()))
            tools.putIfAbsent(Client.WRK, ClientBinary.locate(Client.WRK, config.tools().get(Client.WRK)));
        DescriptorCheck.check(config.runs(), Path.of("/proc/self/limits"));
        Path dir = config.out().toAbsolutePath();
        try {
            Files.createDirectories(dir);
            Path serversLog = dir.resolve("servers.log");
            Path backendLog = dir.resolve("backend.log");
            boolean local = config.remote() == null; // with --target the bench starts no JVM and writes no logs
            if (local) Files.writeString(serversLog, "");
            if (local) Files.writeString(backendLog, "");
            Machine machine = Machine.describe(tools);
            List<RunSpec> plan = config.runs();
            java.time.Instant started = java.time.Instant.now();
            Provenance provenance = Provenance.collect(commandLine, dir, versions(machine), cpuSets(config, local));
            provenance.write(dir);
            out.printf("bench: preset %s, %d runs, about %d min, %s twin, %s -> %s%n", config.preset(), plan.size(),
                    Estimate.minutes(plan, config) * config.invocations(), config.twin(), tools.values(), dir);
            if (!config.decides()) out.printf("bench: windows of %d s closed-loop and %d s open-loop decide nothing (a result needs %d s and %d s)%n",
                    config.measureS(), config.openMeasureS(), loomylin.lab.engine.run.Windows.DECIDING_CLOSED_S, loomylin.lab.engine.run.Windows.DECIDING_OPEN_S);
            if (!local) out.println("bench: targets " + config.remote().servers().stream().map(t -> t.pool() + " at " + t.base()).toList()
                    + (config.remote().metrics() == null ? ", no --metrics: the server columns stay empty" : ", metrics " + config.remote().metrics()));

            List<RunResult> rows = new ArrayList<>();
            String failure = null;
            int total = plan.size() * config.invocations();
            Progress progress = new Progress(total, out);
            try (ResultsCsv csv = ResultsCsv.create(dir.resolve("results.csv"))) {
                for (int invocation = 1; invocation <= config.invocations() && failure == null; invocation++) {
                    if (config.invocations() > 1) out.printf("bench: invocation %d of %d%n", invocation, config.invocations());
                    failure = invoke(config, tools, machine, plan, invocation, csv, rows, progress, serversLog, backendLog, out);
                }
            }
            provenance = provenance.finishedAfter(java.time.Duration.between(started, java.time.Instant.now()).toSeconds());
            provenance.write(dir);
            writeSummaries(config, provenance, plan, rows, dir, failure);
            if (failure != null)
                throw new StartupFailure("bench " + failure + " (" + rows.size() + " finished runs written to " + dir + ")");
            out.printf("bench: done; %s%n", dir.resolve("report.md"));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    /** Each load generator's version as it reports it, by name. */
    private static Map<String, String> versions(Machine machine) {
        Map<String, String> out = new java.util.TreeMap<>();
        machine.clients().forEach((c, v) -> out.put(c.label(), v));
        return out;
    }

    /** The process kinds this bench starts (with --target only the load generator) and their CPUs, or "all". */
    private static Map<String, String> cpuSets(BenchConfig config, boolean local) {
        Map<String, String> out = new java.util.TreeMap<>(config.cpuSets().describe());
        if (!local) out.keySet().retainAll(java.util.Set.of(CpuSets.Role.CLIENT.label()));
        return out;
    }

    /** targets.csv, the charts and report.md of the rows: after a bench, and again by {@code --rerender} ({@link Rerender}). */
    static void writeSummaries(BenchConfig config, Provenance provenance, List<RunSpec> plan,
                                       List<RunResult> rows, Path dir, String failure) throws IOException {
        List<Targets.Target> targets = Targets.evaluate(rows, provenance.host().cores());
        Targets.writeCsv(dir.resolve("targets.csv"), targets);
        List<String> charted = new ArrayList<>();
        for (Endpoint e : RunSpec.endpoints(plan)) {
            for (boolean open : List.of(false, true)) {
                if (Charts.write(dir, e, open, RunSpec.pools(plan), rows)) charted.add(Charts.fileName(e, open));
                else Files.deleteIfExists(dir.resolve(Charts.fileName(e, open))); // an earlier bench's chart would mislead
            }
        }
        Report.write(dir.resolve("report.md"), config, provenance, plan, rows, targets, charted, failure);
    }

    /**
     * One invocation of the plan: its own backend JVM (for /hops-*), warmed once, then every run in a fresh server
     * JVM; rows go to {@code csv} and {@code rows} as they finish. Returns why it stopped early, or null.
     */
    private static String invoke(BenchConfig config, Map<Client, Path> tools, Machine machine, List<RunSpec> plan, int invocation,
                                 ResultsCsv csv, List<RunResult> rows, Progress progress, Path serversLog, Path backendLog, PrintStream out)
            throws IOException {
        boolean local = config.remote() == null;
        ServerProcess backend = null;
        try {
            URI backendUri;
            if (local && plan.stream().anyMatch(r -> r.endpoint().usesBackend())) {
                backend = startBackend(config.cpuSets().prefix(CpuSets.Role.BACKEND), config.backendDelayMs(), backendLog);
                backendUri = backend.uri("");
            } else {
                backendUri = URI.create("http://" + ServerProcess.HOST + ":" + FreePort.pick()); // never called
            }
            RunMaker executor = local ? new RunExecutor(config, tools, backendUri, backend == null ? -1 : backend.pid(), serversLog, machine.cores())
                    : new RemoteRunExecutor(config, tools, machine.cores());
            if (backend != null && executor instanceof RunExecutor runs) {
                out.println("bench: warming the backend (" + config.warmup() + " per hop endpoint)");
                runs.warmBackend();
            }
            int done = (invocation - 1) * plan.size();
            for (int i = 0; i < plan.size(); i++) {
                RunSpec run = plan.get(i);
                int number = done + i + 1;
                if (local) Files.writeString(serversLog, "=== run " + number + "/" + progress.total() + ": " + run.describe() + "\n",
                        java.nio.file.StandardOpenOption.APPEND);
                try {
                    String started = RunResult.When.now();
                    String load1 = RunResult.When.load1Now();
                    RunResult row = executor.execute(run).inInvocation(invocation).at(new RunResult.When(started, RunResult.When.now(), load1));
                    csv.append(row);
                    rows.add(row);
                    progress.done(number, row);
                } catch (Exception e) {
                    progress.failed(number, run, message(e));
                    if (e instanceof InterruptedException) Thread.currentThread().interrupt();
                    return "run " + number + "/" + progress.total() + " (" + run.describe() + ") failed: " + message(e);
                }
            }
            return null;
        } catch (StartupFailure e) {
            return "backend: " + e.getMessage();
        } finally {
            if (backend != null) backend.close();
        }
    }

    private static ServerProcess startBackend(List<String> launcher, int delayMs, Path log) throws IOException {
        return ServerProcess.startedBackend(launcher, delayMs, log, "/authorize?userId=bench&delay=0");
    }

    /** Our own failures are already one readable line; anything else keeps its type. */
    private static String message(Exception e) {
        return e instanceof StartupFailure || e instanceof UsageError ? e.getMessage() : e.toString();
    }
}
