package loomylin;

import java.util.Arrays;
import loomylin.launch.BackendCommand;
import loomylin.cli.Guard;
import loomylin.launch.Launcher;
import loomylin.jetty.Twin;

/**
 * Entry point of {@code java -jar loomylin.jar}. The first word picks the command; every route's handler is
 * one hop from here: {@link loomylin.java.AppServer} and {@link loomylin.kotlin.AppServer} hold the route tables.
 * <ul>
 *   <li>{@code advise ...}: the user's own request profile measured on three pools ({@link loomylin.advise.Advise})</li>
 *   <li>{@code backend ...}: the backend alone ({@link BackendCommand})</li>
 *   <li>{@code bare-jetty ...}: a bare Jetty Handler on one pool, the floor under the servers ({@link loomylin.bare.BareJetty})</li>
 *   <li>{@code bench ...}: the benchmark ({@link loomylin.bench.Bench})</li>
 *   <li>{@code clients ...}: the echo seed's client models against a target ({@link loomylin.clients.ClientsCommand})</li>
 *   <li>{@code report ...}: the docs' result sections re-rendered from gfx/results ({@link loomylin.report.ReportCommand})</li>
 *   <li>anything else: the servers of the twin {@code --twin} (or LOOMYLIN_TWIN) names,
 *       {@link loomylin.java.Loomylin} or {@link loomylin.kotlin.Loomylin}</li>
 * </ul>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        String command = args.length > 0 ? args[0] : "";
        String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
        switch (command) {
            case "advise" -> Guard.run(() -> loomylin.advise.Advise.main(rest));
            case "backend" -> Guard.run(() -> BackendCommand.main(rest));
            case "bare-jetty" -> Guard.run(() -> loomylin.bare.BareJetty.main(rest));
            case "bench" -> Guard.run(() -> loomylin.bench.Bench.main(rest));
            case "clients" -> Guard.run(() -> loomylin.clients.ClientsCommand.main(rest));
            case "report" -> Guard.run(() -> loomylin.report.ReportCommand.main(rest));
            default -> {
                Guard.run(() -> Launcher.options(args).ifPresent(options -> {
                    if (options.twin() == Twin.KOTLIN) loomylin.kotlin.Loomylin.serve(options);
                    else loomylin.java.Loomylin.serve(options);
                }));
            }
        }
    }
}
