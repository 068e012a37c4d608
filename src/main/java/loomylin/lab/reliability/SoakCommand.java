package loomylin.lab.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import loomylin.lab.engine.run.FreePort;
import loomylin.lab.engine.run.ServerJava;
import loomylin.lab.engine.run.ServerProcess;
import loomylin.server.cli.Flags;
import loomylin.server.cli.Guard;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * {@code java -jar loomylin.jar soak}: the default three servers ({@code qtp:4}, {@code qtp:32}, {@code loom}) and
 * the embedded backend in one server JVM under {@link Soak}'s steady mixed load for a while, on loopback; then
 * SIGTERM must stop that JVM with exit status 0. Writes soak.csv, output.txt, servers.log and provenance.json to
 * {@code --out}; the last line is "soak: N passed, M failed", the exit status 0 when every check passed, 1 when one
 * failed, 2 for a bad flag (one line). Every flag is also read from {@code SOAK_<NAME>}.
 */
public final class SoakCommand {
    static final String CSV = "soak.csv";
    /** The shortest soak: the warm-up alone takes 10 s. */
    static final int MIN_SECONDS = 20;

    static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("seconds", "S", "600", "how long the load runs, at least " + MIN_SECONDS, "SOAK_SECONDS"),
            new Flags.Flag("out", "DIR", "gfx/results/soak", "where soak.csv, output.txt, servers.log and provenance.json go", "SOAK_OUT"),
            new Flags.Flag("port", "PORT", "0", "the first of the five ports the servers, the backend and the admin port use; 0 = free ones", "SOAK_PORT"),
            new Flags.Flag("clients", "N", "4", "clients per server", "SOAK_CLIENTS"),
            new Flags.Flag("think-ms", "MS", "10", "pause between a client's requests", "SOAK_THINK_MS"),
            new Flags.Flag("warmup-seconds", "S", null, "warm-up before the RSS and thread baselines; default a quarter of the run, 10-120 s",
                    "SOAK_WARMUP_SECONDS"),
            new Flags.Flag("rss-tolerance", "FRACTION", "0.25", "allowed RSS growth after warm-up", "SOAK_RSS_TOLERANCE"),
            new Flags.Flag("thread-tolerance", "N", "10", "allowed thread growth after warm-up", "SOAK_THREAD_TOLERANCE"),
            // The heap is committed and touched up front, so that RSS shows what grows outside it (threads, buffers,
            // metaspace, code): left lazy, G1 touching fresh heap regions made RSS climb 60 % in a minute's run.
            new Flags.Flag("java-opts", "OPTS", "-Xms256m -Xmx256m -XX:+AlwaysPreTouch", "the server JVM's options", "SOAK_JAVA_OPTS"),
            new Flags.Flag("java", "PATH", null, "the java the servers run on (JDK 21 or later); default this one", "SOAK_JAVA"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    /** The soak's flags, read once; {@code java} is null for this JVM's own java. */
    record Options(int seconds, Path out, int port, int clientsPerPort, int thinkMs, int warmupSeconds, double rssTolerance, int threadTolerance,
                   List<String> javaOptions, String java) {
        static Options of(Flags flags) {
            int seconds = flags.integer("seconds", MIN_SECONDS, 30 * 24 * 3600);
            double rssTolerance;
            try {
                rssTolerance = Double.parseDouble(flags.get("rss-tolerance"));
                if (!(rssTolerance >= 0 && rssTolerance <= 100)) throw new NumberFormatException();
            } catch (NumberFormatException e) {
                throw new UsageError("--rss-tolerance must be a fraction such as 0.25, got '" + Params.printable(flags.get("rss-tolerance")) + "'");
            }
            return new Options(seconds, Path.of(flags.get("out")), flags.integer("port", 0, 65531), flags.integer("clients", 1, 10_000),
                    flags.integer("think-ms", 0, 600_000), flags.integer("warmup-seconds", Math.min(120, Math.max(10, seconds / 4)), 0, seconds), rssTolerance,
                    flags.integer("thread-tolerance", 0, 100_000), List.of(flags.get("java-opts").trim().split("\\s+")), flags.get("java"));
        }
    }

    private SoakCommand() {
    }

    /** The command: exits 0 when every check passed, 1 when one failed or the run could not go on (one line), 2 for a bad flag. */
    public static void main(String[] args) {
        Options o = Guard.call(() -> {
            Flags flags = Flags.parse(args, FLAGS, System.getenv());
            if (flags.help()) {
                System.out.print("Usage: java -jar loomylin.jar soak [flags]\n\n" + Flags.describe(FLAGS));
                System.exit(0);
            }
            Flags.requireProc("soak");
            Options options = Options.of(flags);
            if (options.java() != null) ServerJava.choose(options.java());
            return options;
        });
        String commandLine = ReliabilityRun.commandLine("soak", args, FLAGS, System.getenv());
        int status;
        try (ReliabilityRun run = Guard.call(() -> ReliabilityRun.begin("soak", commandLine, o.out()))) {
            status = run(o, run);
        } catch (IOException e) {
            Guard.exit(1, "soak: " + e.getMessage());
            return;
        } catch (InterruptedException e) {
            Guard.exit(130, "soak: interrupted");
            return;
        }
        System.exit(status);
    }

    /** Starts the servers, soaks them, stops them; the exit status. */
    static int run(Options o, ReliabilityRun run) throws IOException, InterruptedException {
        int port = o.port() == 0 ? FreePort.block(5) : o.port();
        List<Integer> ports = List.of(port, port + 1, port + 2);
        try (ServerProcess servers = Guard.call(() -> started(o, port, run.log()))) {
            run.out().printf("soak: %s, %d cores; servers on ports %d-%d, backend %d, pid %d, %s%n", ServerJava.current().described(),
                    Runtime.getRuntime().availableProcessors(), port, port + 2, port + 3, servers.pid(), String.join(" ", o.javaOptions()));
            Soak.Load load = new Soak.Load(ports, servers.pid(), o.seconds(), o.clientsPerPort(), o.thinkMs(), o.warmupSeconds(), o.rssTolerance(),
                    o.threadTolerance());
            Soak.Result result = new Soak(load, run.out()).run();
            Files.writeString(run.dir().resolve(CSV), result.csv(), StandardCharsets.UTF_8);
            result.checks().forEach(run::check);
            run.stopsOnSigterm(servers);
        }
        run.reportWarnings();
        return run.finish();
    }

    /** The servers' JVM, once every server answers /pool and the admin port /metrics; a start that fails is one line (exit 1). */
    private static ServerProcess started(Options o, int port, Path log) {
        try {
            ServerProcess servers = ServerProcess.servers(List.of(), o.javaOptions(), port, List.of(), log);
            try {
                for (int p = port; p < port + 3; p++) servers.awaitReady(p, "/pool");
                servers.awaitReady(port + 4, "/metrics"); // the admin port, which starts last
                return servers;
            } catch (RuntimeException e) {
                servers.close();
                throw e;
            }
        } catch (IOException e) {
            throw new StartupFailure("soak: could not start the servers: " + e.getMessage());
        }
    }
}
