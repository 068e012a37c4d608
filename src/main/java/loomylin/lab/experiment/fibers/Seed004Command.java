package loomylin.lab.experiment.fibers;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import loomylin.lab.engine.ExperimentCommand;
import loomylin.lab.engine.PlanFlags;
import loomylin.lab.engine.ServerFlags;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientTool;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.lab.engine.run.Windows;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import loomylin.server.web.Params;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code bench seed004 [flags]}: the fibers-server seed's experiments ({@link FibersExperiments}), its flags declared
 * here and read once into {@link FibersExperiments.Options}. No {@code --repeat}: seed004.csv keeps one row per cell.
 */
public final class Seed004Command implements ExperimentCommand {
    @Mixin
    PlanFlags plan = new PlanFlags();

    @Mixin
    ServerFlags servers = new ServerFlags();

    @Option(names = "--pools", paramLabel = "KIND,KIND,...", defaultValue = FibersExperiments.POOLS_LIST, description = "the pools to compare; KIND is " + PoolKind.HELP)
    String pools;

    @Option(names = "--concurrency", paramLabel = "N,N,...", defaultValue = FibersExperiments.CONCURRENCY_LIST, description = "hey's clients in a run, 1-10000 each")
    String concurrency;

    @Option(names = "--duration", paramLabel = "Ns", defaultValue = FibersExperiments.DURATION, converter = Seconds.class,
            description = "hey's window (-z) in whole seconds, grown for 1 s requests as every closed-loop window")
    String duration;

    @Option(names = "--warmup", paramLabel = "Ns", defaultValue = FibersExperiments.WARMUP, converter = Seconds.class,
            description = "the warm-up before each run, at the run's own concurrency")
    String warmup;

    @Option(names = "--hey", paramLabel = "PATH", converter = CommandLines.PathValue.class, description = "the hey binary (default: hey on PATH)")
    Path hey;

    /** The flags read once. */
    FibersExperiments.Options options() {
        PlanFlags.Options p = plan.options(1);
        List<Integer> clients = PresetOptions.items("--concurrency", concurrency).stream().map(c -> {
            if (!c.matches("\\d{1,5}") || Integer.parseInt(c) < 1 || Integer.parseInt(c) > 10_000)
                throw new UsageError("--concurrency takes whole numbers from 1 to 10000, got '" + Params.printable(c) + "'");
            return Integer.parseInt(c);
        }).toList();
        return new FibersExperiments.Options(p, servers.options(FibersExperiments.HEAP, p.out()), PresetOptions.poolLabels(PresetOptions.items("--pools", pools)),
                clients, duration, warmup, new ClientTool(Client.HEY, hey));
    }

    @Override
    public String about() {
        int runs = FibersExperiments.EXPERIMENTS.size() * FibersExperiments.REQUEST_MS.size() * FibersExperiments.CONCURRENCY.size() * FibersExperiments.POOLS.size();
        long seconds = FibersExperiments.seconds(FibersExperiments.DURATION);
        long minutes = (FibersExperiments.estimateS(seconds, FibersExperiments.seconds(FibersExperiments.WARMUP),
                FibersExperiments.CONCURRENCY.size() * FibersExperiments.POOLS.size()) + 59) / 60;
        return "the fibers-server seed's experiments 1 and 2: " + runs + " runs of --duration (" + FibersExperiments.DURATION + "; "
                + Windows.closedS((int) seconds, 1000) + " s for 1 s requests) after --warmup (" + FibersExperiments.WARMUP
                + ") at the run's concurrency; about " + minutes + " min here; writes seed004.csv, seed004.md, provenance.json";
    }

    @Override
    public Path run(String commandLine, PrintStream out) {
        return FibersExperiments.run(options(), commandLine, out);
    }

    /** hey's whole seconds, such as 8s. */
    static final class Seconds implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            String d = text.trim();
            if (!d.matches("\\d{1,4}s") || d.matches("0+s")) throw new TypeConversionException("must be whole seconds such as 8s, got '" + Params.printable(text) + "'");
            return d;
        }
    }
}
