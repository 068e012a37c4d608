package loomylin;

import java.util.Arrays;
import loomylin.server.launch.BackendCommand;
import loomylin.server.cli.Guard;
import loomylin.server.launch.Launcher;
import loomylin.server.jetty.Twin;

/**
 * Entry point of {@code java -jar loomylin.jar}. The first word picks the command; every route's handler is
 * one hop from here: {@link loomylin.server.java.AppServer} and {@link loomylin.server.kotlin.AppServer} hold the route tables.
 * <ul>
 *   <li>{@code advise ...}: the user's own request profile measured on three pools ({@link loomylin.lab.experiment.advise.Advise})</li>
 *   <li>{@code backend ...}: the backend alone ({@link BackendCommand})</li>
 *   <li>{@code bare-jetty ...}: a bare Jetty Handler on one pool, the floor under the servers ({@link loomylin.lab.bare.BareJetty})</li>
 *   <li>{@code bench ...}: the benchmark ({@link loomylin.lab.bench.Bench})</li>
 *   <li>{@code clients ...}: the echo seed's client models against a target ({@link loomylin.lab.clients.ClientsCommand})</li>
 *   <li>{@code report ...}: the docs' result sections re-rendered from gfx/results ({@link loomylin.lab.report.ReportCommand})</li>
 *   <li>{@code slow-clients ...}: slowloris against a server at its open-files limit ({@link loomylin.lab.reliability.SlowClientsCommand})</li>
 *   <li>{@code soak ...}: the default servers under a steady mixed load, then SIGTERM ({@link loomylin.lab.reliability.SoakCommand})</li>
 *   <li>anything else: the servers of the twin {@code --twin} (or LOOMYLIN_TWIN) names,
 *       {@link loomylin.server.java.Loomylin} or {@link loomylin.server.kotlin.Loomylin}</li>
 * </ul>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        String command = args.length > 0 ? args[0] : "";
        String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
        switch (command) {
            case "advise" -> Guard.run(() -> loomylin.lab.experiment.advise.Advise.main(rest));
            case "backend" -> Guard.run(() -> BackendCommand.main(rest));
            case "bare-jetty" -> Guard.run(() -> loomylin.lab.bare.BareJetty.main(rest));
            case "bench" -> Guard.run(() -> loomylin.lab.bench.Bench.main(rest));
            case "clients" -> Guard.run(() -> loomylin.lab.clients.ClientsCommand.main(rest));
            case "report" -> Guard.run(() -> loomylin.lab.report.ReportCommand.main(rest));
            case "slow-clients" -> Guard.run(() -> loomylin.lab.reliability.SlowClientsCommand.main(rest));
            case "soak" -> Guard.run(() -> loomylin.lab.reliability.SoakCommand.main(rest));
            default -> {
                Guard.run(() -> Launcher.options(args).ifPresent(options -> {
                    if (options.twin() == Twin.KOTLIN) loomylin.server.kotlin.Loomylin.serve(options);
                    else loomylin.server.java.Loomylin.serve(options);
                }));
            }
        }
    }
}
