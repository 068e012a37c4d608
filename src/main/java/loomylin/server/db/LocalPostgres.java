package loomylin.server.db;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A PostgreSQL server of Loomylin's own, on loopback: a new database cluster in a directory of its own under
 * {@link #home()}, password-protected, seeded with {@link Items}, and gone after {@link #close()} (server stopped,
 * directory deleted). Nothing outlives the process that started it: the server is started from a thread that lives
 * as long as it does, with the kernel told to kill it when that thread ends ({@link RunAs}), and a directory left by
 * a Loomylin that was killed anyway is cleaned up, its server stopped, by the next {@link #start}.
 *
 * <p>It is a lab database: fsync and synchronous commit are off (nothing is kept past {@link #close()}, and the
 * endpoints only read), and it listens on 127.0.0.1 only.
 */
public final class LocalPostgres implements AutoCloseable {
    public static final String USER = "loomylin";
    static final String DATABASE = "postgres";
    /** How long the server gets to start and answer, and to stop before it is killed. */
    static final Duration START = Duration.ofSeconds(60);
    static final Duration STOP = Duration.ofMillis(1_500);
    private static final AtomicInteger STARTED = new AtomicInteger();

    private final Path run;
    private final List<String> pgCtl;
    private final ProcessBuilder builder;
    private volatile Process process;
    private volatile Thread keeper;
    private final int port;
    private final String password;
    private final String version;
    private final Thread hook;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LocalPostgres(Path run, List<String> pgCtl, ProcessBuilder builder, Process process, Thread keeper, int port, String password,
                          String version) {
        this.run = run;
        this.pgCtl = pgCtl;
        this.builder = builder;
        this.process = process;
        this.keeper = keeper;
        this.port = port;
        this.password = password;
        this.version = version;
        this.hook = new Thread(this::close, "postgres-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Where every Loomylin of this user keeps its servers' directories and the unpacked binaries. */
    public static Path home() {
        int uid = RunAs.uid();
        return Path.of(System.getProperty("java.io.tmpdir"), "loomylin-postgres-" + (uid >= 0 ? String.valueOf(uid) : System.getProperty("user.name")));
    }

    /**
     * Starts a server from the binaries in {@code bin} (null: the bundled ones), allowing {@code maxConnections}
     * connections, and seeds it.
     *
     * @throws DbStartFailure in one line when it cannot
     */
    public static LocalPostgres start(Path bin, int maxConnections) {
        Path home = home();
        try {
            Files.createDirectories(home);
            home.toFile().setReadable(true, false);
            home.toFile().setExecutable(true, false);
            cleanLeftovers(home);
        } catch (IOException e) {
            throw new DbStartFailure("could not prepare " + home + " for PostgreSQL: " + e.getMessage());
        }
        Path binaries = bin != null ? PostgresBinaries.given(bin) : PostgresBinaries.bundled(home);
        List<String> prefix = RunAs.prefix();
        Path run = home.resolve("run-" + ProcessHandle.current().pid() + "-" + STARTED.incrementAndGet());
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        Process process = null;
        Thread keeper = null;
        try {
            PostgresBinaries.deleteTree(run);
            Files.createDirectories(run);
            Files.writeString(run.resolve("owner"), ownerLine(ProcessHandle.current()));
            RunAs.own(run);
            Path pwfile = run.resolve("password");
            Files.writeString(pwfile, password + "\n");
            RunAs.own(pwfile);
            List<String> initdb = new ArrayList<>(prefix);
            initdb.addAll(List.of(binaries.resolve("initdb").toString(), "-D", run.resolve("data").toString(), "-U", USER,
                    "--pwfile=" + pwfile, "-A", "scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"));
            Process init = new ProcessBuilder(initdb).redirectErrorStream(true).redirectOutput(run.resolve("initdb.log").toFile()).start();
            if (!init.waitFor(START.toSeconds(), TimeUnit.SECONDS)) {
                init.destroyForcibly();
                throw new DbStartFailure("PostgreSQL's initdb took more than " + START.toSeconds() + " s: " + lastLine(run.resolve("initdb.log")));
            }
            Files.deleteIfExists(pwfile);
            if (init.exitValue() != 0)
                throw new DbStartFailure("PostgreSQL's initdb failed: " + lastLine(run.resolve("initdb.log")));
            int port = freePort();
            List<String> server = new ArrayList<>(prefix);
            server.addAll(List.of(binaries.resolve("postgres").toString(), "-D", run.resolve("data").toString(), "-p", String.valueOf(port),
                    "-k", run.toString(), "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=" + maxConnections,
                    "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"));
            ProcessBuilder builder = new ProcessBuilder(server).redirectErrorStream(true).redirectOutput(run.resolve("postgres.log").toFile());
            CompletableFuture<Process> started = new CompletableFuture<>();
            keeper = Thread.ofPlatform().daemon().name("postgres-" + port).start(() -> keep(builder, started));
            process = started.join();
            String version = awaitReady(process, port, password, run.resolve("postgres.log"));
            List<String> pgCtl = new ArrayList<>(prefix);
            pgCtl.addAll(List.of(binaries.resolve("pg_ctl").toString(), "stop", "-D", run.resolve("data").toString(), "-m", "fast", "-s", "-w",
                    "-t", String.valueOf(STOP.toSeconds())));
            return new LocalPostgres(run, pgCtl, builder, process, keeper, port, password, version);
        } catch (IOException | CompletionException e) {
            stop(null, process, run);
            throw new DbStartFailure("could not start PostgreSQL in " + run + ": " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        } catch (InterruptedException e) {
            stop(null, process, run);
            Thread.currentThread().interrupt();
            throw new DbStartFailure("interrupted while PostgreSQL started");
        } catch (RuntimeException e) {
            stop(null, process, run);
            throw e;
        }
    }

    /** Starts the server on this thread and holds it: the server's parent-death signal is tied to this thread. */
    private static void keep(ProcessBuilder builder, CompletableFuture<Process> started) {
        Process p;
        try {
            p = builder.start();
        } catch (IOException e) {
            started.completeExceptionally(e);
            return;
        }
        started.complete(p);
        while (p.isAlive()) {
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                // keep holding: this thread ending would kill the server
            }
        }
    }

    /**
     * Stops the server as {@link #close()} does ("fast": running queries are ended) but keeps its directory: what a
     * database that went down looks like to its clients. {@link #restart()} brings it back. For fault tests.
     */
    public synchronized void halt() {
        if (closed.get()) throw new IllegalStateException("closed");
        stopProcess(pgCtl, process);
    }

    /** Starts the server again, on the same port and data, after {@link #halt()}; returns once it takes connections. */
    public synchronized void restart() throws InterruptedException {
        if (closed.get()) throw new IllegalStateException("closed");
        if (process.isAlive()) return;
        CompletableFuture<Process> started = new CompletableFuture<>();
        keeper = Thread.ofPlatform().daemon().name("postgres-" + port).start(() -> keep(builder, started));
        process = started.join();
        awaitReady(process, port, password, run.resolve("postgres.log"));
    }

    /** Waits until the server takes a connection, then seeds it; its version ("18.6"). */
    private static String awaitReady(Process process, int port, String password, Path log) throws InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new DbStartFailure("PostgreSQL stopped as it started: " + lastLine(log));
            try (Connection c = DriverManager.getConnection(url(port), credentials(password))) {
                Items.seed(c);
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SHOW server_version")) {
                    r.next();
                    return r.getString(1).split(" ")[0];
                }
            } catch (SQLException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        throw new DbStartFailure("PostgreSQL did not answer within " + START.toSeconds() + " s: " + (last == null ? "" : last.getMessage()));
    }

    private static String url(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    private static Properties credentials(String password) {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", "2");
        return p;
    }

    /** The options a server's pool needs to reach this database. */
    public DbOptions options(int poolSize, int timeoutMs) {
        return new DbOptions(url(port), USER, password, poolSize, timeoutMs);
    }

    public int port() {
        return port;
    }

    /** The server's version, as it says it: "18.6". */
    public String version() {
        return version;
    }

    /** The server's process id. */
    public long pid() {
        return process.pid();
    }

    /** The server's own directory (data, socket, log); gone after {@link #close()}. */
    public Path directory() {
        return run;
    }

    /**
     * Stops the server in PostgreSQL's "fast" mode (sessions still running, a {@code pg_sleep} among them, are
     * ended, not waited for), killed if it has not stopped within {@link #STOP}, and deletes its directory.
     */
    @Override
    public synchronized void close() {
        if (closed.getAndSet(true)) return;
        stop(pgCtl, process, run);
        try {
            keeper.join(STOP.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (Thread.currentThread() != hook) Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook runs (and returns at once)
        }
    }

    /**
     * {@code pg_ctl stop -m fast} where there is one (else SIGTERM, PostgreSQL's "smart" stop), then SIGKILL if
     * the server has not ended within {@link #STOP}; then its directory goes.
     */
    private static void stop(List<String> pgCtl, Process process, Path run) {
        stopProcess(pgCtl, process);
        try {
            PostgresBinaries.deleteTree(run);
        } catch (IOException e) {
            // left for the next start's clean-up, which retries
        }
    }

    private static void stopProcess(List<String> pgCtl, Process process) {
        if (process != null && pgCtl != null && process.isAlive()) {
            try {
                Process ctl = new ProcessBuilder(pgCtl).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (!ctl.waitFor(STOP.toMillis() + 500, TimeUnit.MILLISECONDS)) ctl.destroyForcibly();
                process.waitFor(STOP.toMillis(), TimeUnit.MILLISECONDS);
            } catch (IOException e) {
                // no pg_ctl to run: the signals below stop it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (process != null) end(process.toHandle());
    }

    private static void end(ProcessHandle p) {
        p.destroy();
        try {
            p.onExit().get(STOP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception slow) {
            p.destroyForcibly();
            try {
                p.onExit().get(STOP.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception ignored) {
                // the kernel will reap it
            }
        }
    }

    /** "PID START_MILLIS": enough to tell whether the process that owns a directory is still the one running. */
    private static String ownerLine(ProcessHandle p) {
        return p.pid() + " " + p.info().startInstant().map(i -> String.valueOf(i.toEpochMilli())).orElse("0") + "\n";
    }

    /** Stops the server of, and deletes, every directory under {@code home} whose owner is no longer running. */
    static void cleanLeftovers(Path home) throws IOException {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(home, "run-*")) {
            for (Path run : dirs) {
                if (ownerAlive(run)) continue;
                postmaster(run).ifPresent(LocalPostgres::end);
                PostgresBinaries.deleteTree(run);
            }
        }
    }

    private static boolean ownerAlive(Path run) {
        try {
            String[] owner = Files.readString(run.resolve("owner")).trim().split(" ");
            Optional<ProcessHandle> p = ProcessHandle.of(Long.parseLong(owner[0]));
            return p.isPresent() && p.get().isAlive() && ownerLine(p.get()).trim().equals(owner[0] + " " + owner[1]);
        } catch (IOException | RuntimeException e) {
            return false; // no owner file (or a broken one): a directory nobody can be using
        }
    }

    /** The server whose pid the data directory records, if it is still a running postgres. */
    private static Optional<ProcessHandle> postmaster(Path run) {
        try {
            String first = Files.readAllLines(run.resolve("data/postmaster.pid"), StandardCharsets.UTF_8).get(0).trim();
            return ProcessHandle.of(Long.parseLong(first))
                    .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "(its log " + log + " is empty)" : lines.get(lines.size() - 1).strip();
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
