package loomylin.lab.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Stops;
import loomylin.server.web.Limits;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stop bound, in child JVMs: SIGTERM with a request in flight that outlives {@code --grace-ms} ends the
 * process within the grace plus one second, on every pool kind and both twins, every time (each stopped
 * {@link #REPEATS} times, a few at once), and with a grace of 0. That
 * request's client gets exactly one outcome: its connection is closed without an answer (EOF before any byte);
 * the process exits 0, with one warning line when there was a grace to wait, prints no stack trace, and ends
 * because the stop is done, not because the watchdog halted it (it logs when it does). A second signal during a stop
 * ends the process at once, status 1. (SIGINT is not used: a JVM started from a non-interactive shell's
 * background job inherits SIGINT ignored and never sees it.)
 * The only time asserted is the bound itself.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class StopBoundTest {
    static final long BOUND_PAST_GRACE_MS = 1_000;
    /** What the stop's watchdog logs when it ends the process: a stop, or the exit after it, ran past the bound. */
    static final String WATCHDOG = "did not finish within";
    /** The dump the watchdog's line names. */
    static final Pattern WATCHDOG_DUMP = Pattern.compile("did not finish within .*; threads: (/\\S+\\.json)");
    static final String CUT_OFF = "stop: requests still running when the grace ended were cut off without an answer";

    /**
     * Each pool kind and twin is stopped this often: the 72 stops in all catch a hang that strikes one stop in twenty
     * whatever the pool with 97 % odds; a hang confined to one pool kind and twin needs -Dloomylin.stopRepeats=60.
     */
    static final int REPEATS = Integer.getInteger("loomylin.stopRepeats", 6);
    /** Each pool kind and twin is stopped this often on the loaded machine: 5 gives the 60 stops issue 29 asks for. */
    static final int LOADED_REPEATS = Integer.getInteger("loomylin.loadedStopRepeats", 5);
    /** One load request's work: {@code /computational}'s loop, a few tens of milliseconds of CPU. */
    static final int LOAD_ITERATIONS = 2_000_000;
    /** Child JVMs stopped at once: enough to keep the repeats short, few enough that two cores still keep the bound. */
    static final int AT_ONCE = 2;
    static final List<String> TWINS = List.of("java", "kotlin");
    static final List<String> POOLS = List.of("qtp:4", "qtp:32", "qtp-vt:8", "qtp-vtp:8:200", "loom", "jetty-vtp");
    /** A line of a Java stack trace, or the exception line that heads one. */
    static final Pattern STACK_TRACE = Pattern.compile("(?m)^(\\s+at \\S+\\(.*\\)|Caused by: .*|[\\w.$]+(Exception|Error)(: .*)?)$");

    @Test
    void everyPoolKindAndTwinStopsWithinTheBoundEveryTime() throws Exception {
        assertEveryStopWithinTheBound(REPEATS, () -> "");
    }

    /**
     * The same stops on a loaded machine: a load generator keeps twice as many CPU-bound requests running as there
     * are cores on another server JVM (a platform thread each, so each is a runnable OS thread), and every stop still
     * keeps the bound. Each pool kind and twin is stopped {@link #LOADED_REPEATS} times. Tagged {@code load}, which
     * {@code ./mvnw verify} leaves out ({@code it.excludedGroups}): on a machine already busy with other work its load
     * comes on top, and there 1 of 12 stops ran past the watchdog (docs/reliability/stops.md). Its verdict, with the
     * machine's 1-minute load average (sampled every {@link LoadAverage#EVERY}) while the stops ran, goes to the
     * test's output file and into its failure: the figures gfx/results/stop-bound-load recorded.
     */
    @Test
    @Tag("load")
    void everyPoolKindAndTwinStopsWithinTheBoundOnALoadedMachine() throws Exception {
        int busy = 2 * Runtime.getRuntime().availableProcessors();
        try (ChildJvm loaded = ChildJvm.servers("--pools", "qtp:" + (busy + 2)).startReady();
             ExecutorService load = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = loaded.port();
            AtomicBoolean loading = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            for (int i = 0; i < busy; i++) {
                load.submit(() -> {
                    while (loading.get()) {
                        if (RawHttp.get(port, "/computational?iterations=" + LOAD_ITERATIONS, Duration.ofSeconds(60)).status() == 200)
                            answered.incrementAndGet();
                    }
                    return null;
                });
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> answered.get() >= busy);
            try (LoadAverage loadAverage = LoadAverage.start()) {
                assertEveryStopWithinTheBound(LOADED_REPEATS, loadAverage::describe);
            } finally {
                loading.set(false);
            }
        }
    }

    /** Every stop of {@code repeats} of each pool kind and twin keeps the bound; {@code during} adds what the machine did meanwhile. */
    private static void assertEveryStopWithinTheBound(int repeats, Supplier<String> during) throws Exception {
        List<Callable<String>> stops = new ArrayList<>();
        for (int i = 0; i < repeats; i++) {
            for (String twin : TWINS) {
                for (String pool : POOLS) stops.add(() -> stop(twin, pool, 1000));
            }
        }
        List<String> problems = new ArrayList<>();
        try (ExecutorService parallel = Executors.newFixedThreadPool(AT_ONCE)) {
            for (Future<String> stop : parallel.invokeAll(stops)) {
                if (!stop.get().isEmpty()) problems.add(stop.get());
            }
        }
        System.out.println(stops.size() - problems.size() + " of " + stops.size() + " stops within the bound" + during.get());
        assertEquals(List.of(), problems, problems.size() + " of " + stops.size() + " stops broke the promise" + during.get());
    }

    /**
     * The machine's 1-minute load average ({@code /proc/loadavg}'s first figure), sampled every {@link #EVERY} from
     * its start until it is closed: how loaded the machine was while the stops ran.
     */
    static final class LoadAverage implements AutoCloseable {
        static final Duration EVERY = Duration.ofSeconds(5);
        static final Path LOADAVG = Path.of("/proc/loadavg");
        private final List<Double> samples = new CopyOnWriteArrayList<>();
        private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

        static LoadAverage start() {
            LoadAverage load = new LoadAverage();
            load.sampler.scheduleAtFixedRate(load::sample, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
            return load;
        }

        private void sample() {
            try {
                samples.add(Double.parseDouble(Files.readAllLines(LOADAVG).get(0).split(" ")[0]));
            } catch (IOException | RuntimeException e) {
                // no /proc/loadavg: the verdict says there were no samples
            }
        }

        /** "; load average (1 min) during the run: MIN to MAX", or that there was no sample. */
        String describe() {
            if (samples.isEmpty()) return "; no load average sampled";
            DoubleSummaryStatistics s = samples.stream().mapToDouble(Double::doubleValue).summaryStatistics();
            return String.format(Locale.ROOT, "; load average (1 min) during the run: %.2f to %.2f (%d samples)", s.getMin(), s.getMax(), s.getCount());
        }

        @Override
        public void close() {
            sampler.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0} twin, {1}, --grace-ms 0")
    @CsvSource({"java, qtp:4", "java, qtp-vt:8", "java, loom", "java, jetty-vtp", "kotlin, loom", "kotlin, qtp:32"})
    void withNoGraceTheStopCutsOffAtOnce(String twin, String pool) throws Exception {
        assertEquals("", stop(twin, pool, 0));
    }

    /**
     * One stop with a long request in flight; what it did wrong, or "" if nothing: the process ends within the
     * grace plus {@link #BOUND_PAST_GRACE_MS}, status 0, the request's connection closed without an answer, one
     * cut-off warning when there was a grace to wait (with none, nothing waits for the request), no stack trace,
     * no watchdog line.
     */
    private static String stop(String twin, String pool, long graceMs) throws Exception {
        String what = twin + " twin, " + pool + ", --grace-ms " + graceMs;
        try (ChildJvm child = ChildJvm.servers("--twin", twin, "--pools", pool, "--grace-ms", String.valueOf(graceMs),
                "--data-file-bytes", String.valueOf(Limits.DATA_FILE_BYTES_MIN)).startReady();
             ExecutorService client = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = child.port();
            Future<RawHttp.Outcome> longRequest = client.submit(() -> {
                try (Socket s = RawHttp.connect(port, Duration.ofSeconds(60))) {
                    s.getOutputStream().write("GET /wait-blocking?ms=10000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    return new RawHttp.Outcome(RawHttp.read(s.getInputStream(), System.nanoTime()), null);
                } catch (java.io.IOException e) {
                    return new RawHttp.Outcome(null, RawHttp.classify(e));
                }
            });
            awaitRunning(child, pool);

            child.signal("TERM");

            List<String> problems = new ArrayList<>();
            if (!child.process().waitFor(graceMs + BOUND_PAST_GRACE_MS, TimeUnit.MILLISECONDS)) {
                problems.add("still running " + (graceMs + BOUND_PAST_GRACE_MS) + " ms after SIGTERM; threads: "
                        + child.dumpThreads("stop-bound-" + twin + "-" + pool));
            } else {
                if (child.process().exitValue() != 0) problems.add("exit status " + child.process().exitValue() + ", not 0");
                RawHttp.Outcome outcome = longRequest.get(30, TimeUnit.SECONDS);
                if (!outcome.kind().equals("eof")) problems.add("the cut-off request got " + outcome + ", not a close without an answer");
                long cutOff = child.count(CUT_OFF);
                if (cutOff != (graceMs > 0 ? 1 : 0)) problems.add(cutOff + " cut-off warnings");
                if (STACK_TRACE.matcher(child.output()).find()) problems.add("a stack trace");
                if (child.count(WATCHDOG) > 0) problems.add("the watchdog ended the process, not the stop");
            }
            if (!problems.isEmpty()) keepWatchdogDump(child.output());
            return problems.isEmpty() ? "" : what + ": " + String.join("; ", problems) + "\n" + child.output();
        }
    }

    /**
     * The embedded backend stops after the servers and waits for nothing: hop calls leave the URL hop client's
     * keep-alive connections to it open, and the stop still ends within the bound. (It used to give them the
     * backend's own 5 s grace, closing idle connections after 1 s, and the watchdog ended the process:
     * gfx/results/stop-overruns/embedded-backend-keepalive.json.)
     */
    @Test
    void aStopAfterHopCallsEndsWithinTheBound() throws Exception {
        try (ChildJvm child = ChildJvm.main("--host", "127.0.0.1", "--port", "0", "--pools", "loom", "--grace-ms", "1000",
                "--data-file-bytes", String.valueOf(Limits.DATA_FILE_BYTES_MIN)).startReady()) {
            for (String route : List.of("/hops-blocking?delay=0", "/hops-async?delay=0"))
                assertEquals(200, RawHttp.get(child.port(), route).status(), route);

            child.signal("TERM");

            assertEquals("", ended(child, 1000, 0));
        }
    }

    /**
     * {@code backend --grace-ms} is the backend's grace: a call answered after 10 s is cut off when it ends, within the
     * bound. (The backend used to keep a fixed 5 s grace whatever the flag said:
     * gfx/results/stop-overruns/backend-command-grace.json.)
     */
    @Test
    void theBackendCommandStopsWithinItsGrace() throws Exception {
        try (ChildJvm child = ChildJvm.main("backend", "--host", "127.0.0.1", "--port", "0", "--grace-ms", "1000").start();
             ExecutorService client = Executors.newVirtualThreadPerTaskExecutor()) {
            child.awaitOutput("backend on port", Duration.ofSeconds(60));
            int port = child.backendPort();
            client.submit(() -> RawHttp.attempt(port, "GET /echo?delay=10000 HTTP/1.1\r\nHost: x\r\n\r\n", Duration.ofSeconds(60)));
            // the call is in the backend once its answer is scheduled: the JDK's delay scheduler thread exists from then on
            // ("ForkJoinPool.commonPool-delayScheduler" on JDK 25, "CompletableFutureDelayScheduler" before)
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> child.threadDump().toLowerCase(java.util.Locale.ROOT).contains("delayscheduler"));

            child.signal("TERM");

            assertEquals("", ended(child, 1000, 1));
        }
    }

    /** What a stop that ended did wrong, or "": past the bound, not exit 0, not {@code cutOffs} cut-off warnings, a stack trace, the watchdog. */
    private static String ended(ChildJvm child, long graceMs, long cutOffs) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        if (!child.process().waitFor(graceMs + BOUND_PAST_GRACE_MS, TimeUnit.MILLISECONDS)) {
            problems.add("still running " + (graceMs + BOUND_PAST_GRACE_MS) + " ms after SIGTERM; threads: " + child.dumpThreads("stop-bound"));
        } else {
            if (child.process().exitValue() != 0) problems.add("exit status " + child.process().exitValue() + ", not 0");
            if (child.count(CUT_OFF) != cutOffs) problems.add(child.count(CUT_OFF) + " cut-off warnings, not " + cutOffs);
            if (STACK_TRACE.matcher(child.output()).find()) problems.add("a stack trace");
            if (child.count(WATCHDOG) > 0) problems.add("the watchdog ended the process, not the stop");
        }
        if (!problems.isEmpty()) keepWatchdogDump(child.output());
        return problems.isEmpty() ? "" : String.join("; ", problems) + "\n" + child.output();
    }

    /** The thread dump the child's watchdog names in its line, copied beside the test's reports (its own is in the temporary directory). */
    private static void keepWatchdogDump(String output) {
        Matcher m = WATCHDOG_DUMP.matcher(output);
        while (m.find()) {
            try {
                Path dump = Path.of(m.group(1));
                Files.createDirectories(Stops.DUMPS);
                Files.copy(dump, Stops.DUMPS.resolve(dump.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                // the line itself still names it
            }
        }
    }

    @Test
    void aSecondSignalDuringAStopExitsAtOnceWithStatus1() throws Exception {
        try (ChildJvm child = ChildJvm.servers("--pools", "loom", "--grace-ms", "60000").startReady();
             ExecutorService client = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = child.port();
            client.submit(() -> RawHttp.attempt(port, "GET /wait-blocking?ms=60000 HTTP/1.1\r\nHost: x\r\n\r\n", Duration.ofSeconds(90)));
            awaitInFlight(port, 1);
            child.signal("TERM");
            child.awaitOutput("SIGTERM: stopping", Duration.ofSeconds(10));

            child.signal("TERM");

            // "at once": long before the 60 s grace the first signal granted
            assertEquals(1, child.exit(Duration.ofSeconds(10)), child.output());
            assertTrue(child.output().contains("SIGTERM again: exiting now"), child.output());
        }
    }

    /**
     * Waits until the long request runs. A qtp:4 may have a single thread free for requests, busy with it, so
     * /pool could not answer: there the child's thread dump shows the sleeping handler instead.
     */
    private static void awaitRunning(ChildJvm child, String pool) {
        if (!pool.startsWith("qtp:")) {
            awaitInFlight(child.port(), 1);
            return;
        }
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> child.threadDump().contains("Endpoints.waitBlocking"));
    }

    /** Waits until {@code requests} requests besides /pool's own are in flight. */
    private static void awaitInFlight(int port, int requests) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> RawHttp.get(port, "/pool").body().contains("\"inFlight\":" + (requests + 1) + ","));
    }
}
