package loomylin.lab.experiment.connections;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import loomylin.lab.engine.ExperimentCommand;
import loomylin.lab.engine.PlanFlags;
import loomylin.lab.engine.RepeatFlag;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.Whole;
import loomylin.server.proc.ProcLimits;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench connections [flags]}: the echo seed's client models ({@link ConnectionsBench}), its flags declared here and read once into {@link ConnectionsBench.Options}. */
public final class ConnectionsCommand implements ExperimentCommand {
    @Mixin
    PlanFlags plan = new PlanFlags();

    @Mixin
    RepeatFlag repeat = new RepeatFlag();

    @Option(names = "--connections", paramLabel = "N,N,...", description = "the connections each client model holds, one level per run"
            + " (default: 100, 1000, 5000, 10000, 15000 and the most the open-file limit allows, up to " + ConnectionsBench.SEED_MAX + ")")
    String connections;

    @Option(names = "--measure", paramLabel = "S", defaultValue = "" + ConnectionsBench.DEFAULT_MEASURE_S, description = "seconds each client run holds its connections")
    @Whole(min = 1, max = 3_600)
    int measureS;

    /** The flags read once; the levels are checked against this process's open-file limit. */
    ConnectionsBench.Options options() {
        return new ConnectionsBench.Options(ConnectionsBench.levels(connections, ProcLimits.openFiles(ProcLimits.SELF)), measureS,
                plan.options(repeat.rounds(ConnectionsBench.DEFAULT_REPEAT)));
    }

    @Override
    public String about() {
        return "the echo seed: nio, threads and virtual clients x 100-15000 connections and the most the open-file limit allows, against the backend's"
                + " /echo (1 s), --repeat (" + ConnectionsBench.DEFAULT_REPEAT + ") rounds; writes connections.csv/.md/.png, provenance.json";
    }

    @Override
    public Path run(String commandLine, PrintStream out) {
        ConnectionsBench.Options o = options();
        try {
            ConnectionsBench.run(o, commandLine, out);
            return o.plan().out();
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("bench: interrupted");
        }
    }
}
