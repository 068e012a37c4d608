package loomylin.lab.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.ServerJava;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.Guard;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.proc.ProcLimits;

/**
 * {@code java -jar loomylin.jar slow-clients}: a {@code loom} server JVM with a low open-files limit and the header
 * deadline, {@link SlowClients}' thousands of dripping connections and a few normal clients among them, on loopback.
 * Passes when every normal request is answered 200 within the bound (503s retried), the slow connections reached the
 * server's open-files limit, and SIGTERM then stops the server with exit status 0. Writes slow-clients.csv,
 * output.txt, servers.log and provenance.json to {@code --out}; the last line is "slow-clients: N passed, M failed",
 * the exit status 0, 1 when a check failed, 2 for a bad flag (one line). Every flag is also read from {@code SLOW_<NAME>}.
 */
public final class SlowClientsCommand {
    static final String CSV = "slow-clients.csv";
    /** What the server logs when accept() hits its open-files limit ({@code FileLimitConnector}). */
    static final String AT_THE_LIMIT = "at the open-files limit";

    static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("out", "DIR", "gfx/results/slow-clients", "where slow-clients.csv, output.txt, servers.log and provenance.json go", "SLOW_OUT"),
            new Flags.Flag("open-files", "N", "1024", "the server's open-files limit (ulimit -n)", "SLOW_OPEN_FILES"),
            new Flags.Flag("header-timeout-ms", "MS", "2000", "the server's --header-timeout-ms; 0 = no deadline", "SLOW_HEADER_TIMEOUT_MS"),
            new Flags.Flag("port", "PORT", "0", "the server's port on 127.0.0.1 (the backend and the admin port take the next two); 0 = free ones", "SLOW_PORT"),
            new Flags.Flag("slow", "N", "2500", "slow connections held at once", "SLOW_CONNECTIONS"),
            new Flags.Flag("drip-ms", "MS", "1000", "a slow connection's pause between header lines", "SLOW_DRIP_MS"),
            new Flags.Flag("seconds", "S", "20", "how long to run", "SLOW_SECONDS"),
            new Flags.Flag("normal", "N", "4", "normal clients", "SLOW_NORMAL"),
            new Flags.Flag("normal-bound-ms", "MS", "10000", "how long a normal request may take, 503 retries included", "SLOW_NORMAL_BOUND_MS"),
            new Flags.Flag("java", "PATH", null, "the java the server runs on (JDK 21 or later); default this one", "SLOW_JAVA"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    /** The command's flags, read once; {@code java} is null for this JVM's own java. */
    record Options(Path out, int openFiles, int headerTimeoutMs, int port, int slow, int dripMs, int seconds, int normal, int boundMs, String java) {
        static Options of(Flags flags) {
            return new Options(Path.of(flags.get("out")), flags.integer("open-files", 256, 1_048_576), flags.integer("header-timeout-ms", 0, 3_600_000),
                    flags.integer("port", 0, 65533), flags.integer("slow", 1, 50_000), flags.integer("drip-ms", 10, 60_000), flags.integer("seconds", 1, 600),
                    flags.integer("normal", 1, 100), flags.integer("normal-bound-ms", 100, 600_000), flags.get("java"));
        }
    }

    private SlowClientsCommand() {
    }

    /** The command: exits 0 when every check passed, 1 when one failed or the run could not go on (one line), 2 for a bad flag. */
    public static void main(String[] args) {
        Options o = Guard.call(() -> {
            Flags flags = Flags.parse(args, FLAGS, System.getenv());
            if (flags.help()) {
                System.out.print("Usage: java -jar loomylin.jar slow-clients [flags]\n\n" + Flags.describe(FLAGS));
                System.exit(0);
            }
            Flags.requireProc("slow-clients");
            Options options = Options.of(flags);
            // This JVM holds every slow connection's socket, so its own limit must be well above them.
            OptionalLong own = ProcLimits.openFiles(ProcLimits.SELF);
            if (own.isPresent() && own.getAsLong() <= options.slow() + 100L)
                throw new UsageError("this process's open-files limit (" + own.getAsLong() + ") is too low for " + options.slow()
                        + " connections; raise it (ulimit -n " + (options.slow() + 200) + ") or lower --slow");
            if (options.java() != null) ServerJava.choose(options.java());
            return options;
        });
        String commandLine = ReliabilityRun.commandLine("slow-clients", args, FLAGS, System.getenv());
        int status;
        try (ReliabilityRun run = Guard.call(() -> ReliabilityRun.begin("slow-clients", commandLine, o.out()))) {
            status = run(o, run);
        } catch (IOException e) {
            Guard.exit(1, "slow-clients: " + e.getMessage());
            return;
        } catch (InterruptedException e) {
            Guard.exit(130, "slow-clients: interrupted");
            return;
        }
        System.exit(status);
    }

    /** Starts the server, runs the slow and normal clients, stops the server; the exit status. */
    static int run(Options o, ReliabilityRun run) throws IOException, InterruptedException {
        int port = o.port() == 0 ? FreePort.block(3) : o.port();
        try (ServerProcess server = Guard.call(() -> started(o, port, run.log()))) {
            run.out().printf("slow-clients: %s, %d cores; loom on port %d, ulimit -n %d, --header-timeout-ms %d, pid %d%n", ServerJava.current().described(),
                    Runtime.getRuntime().availableProcessors(), port, o.openFiles(), o.headerTimeoutMs(), server.pid());
            run.out().printf("slow-clients: %d slow connections (a header line every %d ms) and %d normal clients against 127.0.0.1:%d for %d s%n",
                    o.slow(), o.dripMs(), o.normal(), port, o.seconds());
            SlowClients.Result r;
            try {
                r = SlowClients.run(port, o.slow(), o.dripMs(), Duration.ofSeconds(o.seconds()), o.normal(), Duration.ofMillis(o.boundMs()), () -> true);
            } catch (ExecutionException e) { // a normal client's bug, not the server's: it must show
                throw new IllegalStateException(e.getCause());
            }
            run.out().println("slow-clients: slow connections ended " + r.slow());
            run.out().printf("slow-clients: normal requests answered 200 within %d ms: %d, slowest %d ms, not answered in time: %d%n",
                    o.boundMs(), r.normalAnswered(), r.normalSlowestMs(), r.normalProblems().size());
            r.normalProblems().stream().limit(5).forEach(p -> run.out().println("slow-clients:   " + p));
            Files.writeString(run.dir().resolve(CSV), SlowClients.csv(o.slow(), o.dripMs(), o.seconds(), o.normal(), o.boundMs(), r), StandardCharsets.UTF_8);
            run.check(r.passed(), "normal-clients-answered", r.normalAnswered() + " answered, " + r.normalProblems().size() + " not");
            boolean atLimit = Files.readString(run.log(), StandardCharsets.UTF_8).contains(AT_THE_LIMIT);
            run.check(atLimit, "descriptors-exhausted", atLimit ? "the slow connections reached the server's open-files limit"
                    : "the server never reached its open-files limit (too few slow connections for --open-files)");
            run.stopsOnSigterm(server);
        }
        run.reportWarnings();
        return run.finish();
    }

    /**
     * The server's JVM under {@code ulimit -n}, once it and its admin port answer; a start that fails is one line (exit 1). The data
     * file is the smallest the server allows: nothing here reads it, and it costs no descriptor.
     */
    private static ServerProcess started(Options o, int port, Path log) {
        List<String> ulimit = List.of("bash", "-c", "ulimit -n " + o.openFiles() + " && exec \"$@\"", "bash");
        List<String> flags = List.of("--pools", "loom", "--header-timeout-ms", String.valueOf(o.headerTimeoutMs()), "--data-file-bytes", "100000");
        try {
            ServerProcess server = ServerProcess.servers(ulimit, List.of("-Xmx256m"), port, flags, log);
            try {
                server.awaitReady("/wait-blocking?ms=0");
                // The admin port starts last: the load must not take the descriptors it needs to start.
                server.awaitReady(port + 2, "/metrics");
                return server;
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
        } catch (IOException e) {
            throw new StartupFailure("slow-clients: could not start the server: " + e.getMessage());
        }
    }
}
