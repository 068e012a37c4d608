package loomylin.lab.engine.run;

import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.measure.JvmCpu;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;

import static loomylin.lab.engine.result.Column.flag;
import static loomylin.lab.engine.result.Column.integer;
import static loomylin.lab.engine.result.Column.maybe;
import static loomylin.lab.engine.result.Column.text;
import static loomylin.lab.engine.result.Column.whole;

/**
 * One measured run: a row of results.csv.
 *
 * @param requests      requests the client sent
 * @param responses     responses it got, any status
 * @param ok            of those, 2xx
 * @param errors        requests without a 2xx answer: no response at all (refused, reset, timed out) or an
 *                      error status; {@code requests - ok}
 * @param durationS     the client's wall time, start to exit: the one duration every rate divides by
 * @param rps           2xx responses per second of {@code durationS}
 * @param warmupRps     2xx responses per second the warm-up achieved just before: far below {@code rps}
 *                      means the measured run started cold
 * @param cpuS          the server JVM's CPU seconds (user + system) during the measured run; NaN when unknown
 *                      (a --target bench without --metrics), like the server's other figures (-1 for the counts)
 * @param idleRssKb     the server's resident memory after start-up, before any load
 * @param peakRssKb     its most resident memory up to the end of the run (warm-up included)
 * @param peakVszKb     its largest address space, likewise
 * @param peakThreads   its most OS threads seen by sampling every 100 ms (platform threads only)
 * @param clientCpuS    the client's CPU seconds
 * @param clientCpuPct  the client's CPU as a share of all cores during its run, in percent
 * @param serverCpuPct  the server's, likewise
 * @param stealPct      the share of the machine's CPU time the hypervisor gave to other guests during the measured
 *                      run, in percent (/proc/stat); NaN where unknown. Runs with more steal ran on a slower machine
 * @param clientLimited the server may not have been the limit ({@link ClientLimit#of}): the client used most of the
 *                      CPUs it may use, or client and server together most of the machine they share
 * @param invocation    which invocation of the plan made the run (--invocations), from 1
 * @param backendCpuS   the backend JVM's CPU seconds during the measured run (the calls of /hops-*); NaN where the
 *                      bench started no backend or the run called none
 * @param when          when the run (warm-up included) started and ended, and the machine's load then
 * @param settle        how the warm-up ended, and a closed-loop run's rates by Little's law: what {@link #settled()} reads;
 *                      and whether the warm-up ended with the server's JIT quiet ({@link Settle#warm}): a warm-up of wrk or
 *                      oha slices goes on, once the rate settled, until the server's compiler threads spent at most
 *                      {@link Warmup#QUIET_SHARE} of its CPU in a slice, and a run whose last slice had them busier is
 *                      {@link #cold()} and decides nothing
 * @param jvm           the server JVM's CPU over the window by thread: the JIT compiler's and the garbage collector's
 *                      apart ({@link JvmCpu}); {@link JvmCpu#NONE} where not recorded (a --target, a file from before)
 */
public record RunResult(RunSpec spec, String twin, long requests, long responses, long ok, long errors, double durationS, double rps,
                 double warmupRps, Measured.Latency latency, double cpuS, long idleRssKb, long peakRssKb, long peakVszKb, int peakThreads,
                 double clientCpuS, double clientCpuPct, double serverCpuPct, boolean clientLimited, double stealPct, int invocation,
                 double backendCpuS, When when, Settle settle, JvmCpu jvm) {

    /**
     * What the settle rule reads beside the rates: whether the warm-up's slices agreed, and a closed-loop run's rates
     * by Little's law ({@link Measured#littleRps}), its window's and its warm-up's last slice's.
     *
     * @param warmupSettled two warm-up slices in a row answered the same rate within {@link #SETTLED_WITHIN} (closed
     *                      loop: by Little's law); null where not recorded (a hey run, a results.csv from before)
     * @param littleRps       the window's rate by Little's law; NaN for an open-loop or hey run, or where not recorded
     * @param warmupLittleRps the warm-up's last slice's, likewise
     * @param warm            the warm-up's last slice was quiet ({@link Warmup#quiet}: the server's compiler threads spent at most
     *                        {@link Warmup#QUIET_SHARE} of its CPU in it); null where not recorded: a hey run, a warm-up of one
     *                        slice (under 2 s), a --target (its JVM is not ours to read), a results.csv from before
     */
    public record Settle(Boolean warmupSettled, double littleRps, double warmupLittleRps, Boolean warm) {
        public static final Settle NONE = new Settle(null, Double.NaN, Double.NaN, null);

        /** A warm-up's end without the JIT's: {@code warm} not recorded. */
        public Settle(Boolean warmupSettled, double littleRps, double warmupLittleRps) {
            this(warmupSettled, littleRps, warmupLittleRps, null);
        }

        /** Both of Little's-law rates known. */
        public boolean littleKnown() {
            return littleRps > 0 && warmupLittleRps > 0;
        }
    }

    /**
     * When a run was made: its start (warm-up included) and end, UTC to the second, and the 1-minute load average
     * as it started; "" where not recorded (results.csv files from before these columns).
     */
    public record When(String started, String ended, String load1) {
        public static final When UNKNOWN = new When("", "", "");

        /** The time now, UTC to the second, as a run's start or end is written. */
        public static String now() {
            return java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        }

        /**
         * A run that started at {@code start}, with the machine's 1-minute load average {@code load1} then (NaN: not
         * known), and ends now: written as {@link #now()} and /proc/loadavg write them, so a row reads the same whoever
         * timed it.
         */
        public static When since(java.time.Instant start, double load1) {
            return new When(start.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(), now(),
                    Double.isNaN(load1) ? "" : String.format(java.util.Locale.ROOT, "%.2f", load1));
        }

        /** The machine's 1-minute load average now, as /proc/loadavg gives it; "" where there is none. */
        public static String load1Now() {
            return loomylin.server.proc.ProcReader.SYSTEM.loadAverage().orElse("");
        }
    }

    /** A run of the bench's first (or only) invocation, without a backend's CPU, its time, or a warm-up's end: the withers below add them. */
    public RunResult(RunSpec spec, String twin, long requests, long responses, long ok, long errors, double durationS, double rps,
                     double warmupRps, Measured.Latency latency, double cpuS, long idleRssKb, long peakRssKb, long peakVszKb, int peakThreads,
                     double clientCpuS, double clientCpuPct, double serverCpuPct, boolean clientLimited, double stealPct) {
        this(spec, twin, requests, responses, ok, errors, durationS, rps, warmupRps, latency, cpuS, idleRssKb, peakRssKb, peakVszKb, peakThreads,
                clientCpuS, clientCpuPct, serverCpuPct, clientLimited, stealPct, 1, Double.NaN, When.UNKNOWN, Settle.NONE, JvmCpu.NONE);
    }

    /** The same run, made in invocation {@code n} of the plan (--invocations). */
    public RunResult inInvocation(int n) {
        return new RunResult(spec, twin, requests, responses, ok, errors, durationS, rps, warmupRps, latency, cpuS, idleRssKb, peakRssKb, peakVszKb,
                peakThreads, clientCpuS, clientCpuPct, serverCpuPct, clientLimited, stealPct, n, backendCpuS, when, settle, jvm);
    }

    /** The same run, made then. */
    public RunResult at(When made) {
        return new RunResult(spec, twin, requests, responses, ok, errors, durationS, rps, warmupRps, latency, cpuS, idleRssKb, peakRssKb, peakVszKb,
                peakThreads, clientCpuS, clientCpuPct, serverCpuPct, clientLimited, stealPct, invocation, backendCpuS, made, settle, jvm);
    }

    /** The same run, with the backend's CPU seconds during its window. */
    public RunResult withBackendCpuS(double seconds) {
        return new RunResult(spec, twin, requests, responses, ok, errors, durationS, rps, warmupRps, latency, cpuS, idleRssKb, peakRssKb, peakVszKb,
                peakThreads, clientCpuS, clientCpuPct, serverCpuPct, clientLimited, stealPct, invocation, seconds, when, settle, jvm);
    }

    /** The same run, with how its warm-up ended and its rates by Little's law. */
    public RunResult withSettle(Settle figures) {
        return new RunResult(spec, twin, requests, responses, ok, errors, durationS, rps, warmupRps, latency, cpuS, idleRssKb, peakRssKb, peakVszKb,
                peakThreads, clientCpuS, clientCpuPct, serverCpuPct, clientLimited, stealPct, invocation, backendCpuS, when, figures, jvm);
    }

    /** The same run, with its server JVM's CPU over the window by thread (the JIT's and the GC's apart). */
    public RunResult withJvm(JvmCpu split) {
        return new RunResult(spec, twin, requests, responses, ok, errors, durationS, rps, warmupRps, latency, cpuS, idleRssKb, peakRssKb, peakVszKb,
                peakThreads, clientCpuS, clientCpuPct, serverCpuPct, clientLimited, stealPct, invocation, backendCpuS, when, settle, split);
    }

    /** A measured window with fewer answers than this decides nothing, however long it lasted. */
    public static final int MIN_ANSWERS = 2_000;
    /** Nor does a closed-loop window in which a client got fewer answers than this: mostly set-up and ramp. */
    public static final int MIN_ANSWERS_PER_CLIENT = 20;
    /** The share within which two warm-up slices agree, and by which a window may fall below the warm-up's last slice (closed loop: by Little's law). */
    public static final double SETTLED_WITHIN = 0.10;

    /**
     * Too few answers for the run to back a verdict: under {@link #MIN_ANSWERS}, or, closed-loop, under
     * {@link #MIN_ANSWERS_PER_CLIENT} per client. An open-loop run's connections are a pool, not clients.
     */
    public boolean tooShort() {
        return tooShort(responses, spec.concurrency(), spec.open());
    }

    /** The rule of {@link #tooShort()} for any run: {@code answers} over {@code concurrency} clients (or connections, open loop). */
    public static boolean tooShort(long answers, int concurrency, boolean open) {
        return answers < MIN_ANSWERS || (!open && answers < (long) MIN_ANSWERS_PER_CLIENT * concurrency);
    }

    /**
     * The window did not catch a ramp: the warm-up settled (two slices in a row, each a fresh client at the run's
     * concurrency, answered the same rate within {@link #SETTLED_WITHIN}), and the window's rate did not fall more
     * than that below the last slice's. Closed loop, the rates are Little's law's ({@link Settle}). The window is
     * not held to the slice from above: a fresh client's own ramp (its connections opening, the requests in flight
     * when it stops) is a larger share of a slice than of a window several times longer, so that a steady server
     * answers faster in the window. Runs written before the warm-up's end was recorded are held, as they were, to
     * the slice within {@link #SETTLED_WITHIN} either way (by Little's law where recorded).
     */
    public boolean settled() {
        double window = settle.littleKnown() ? settle.littleRps() : rps;
        double before = settle.littleKnown() ? settle.warmupLittleRps() : warmupRps;
        if (settle.warmupSettled() == null) return within(window, before);
        return settle.warmupSettled() && before > 0 && window >= before * (1 - SETTLED_WITHIN);
    }

    /** The warm-up recorded the JIT and ran out of slices with it still busy in the last ({@link Settle#warm} false): the window billed code being compiled. */
    public boolean cold() {
        return Boolean.FALSE.equals(settle.warm());
    }

    /** What keeps this run out of a verdict, in the reports' words (too short, cold, unsettled, client-limited); empty when nothing does. */
    public List<String> marks() {
        List<String> why = new ArrayList<>();
        if (tooShort()) why.add("too short");
        if (cold()) why.add("cold");
        if (!settled()) why.add("unsettled");
        if (clientLimited) why.add("client-limited");
        return why;
    }

    /** Whether {@code rate} lies within {@link #SETTLED_WITHIN} of {@code before}, both known. */
    public static boolean within(double rate, double before) {
        return before > 0 && rate > 0 && Math.abs(rate / before - 1) <= SETTLED_WITHIN;
    }

    /** Memory the run added on top of the idle server. */
    public long rssGrowthKb() {
        return idleRssKb < 0 ? 0 : Math.max(0, peakRssKb - idleRssKb);
    }

    /** Server CPU milliseconds per answered request (any status): independent of the run's length. */
    public double cpuMsPerRequest() {
        return responses == 0 ? Double.NaN : cpuS * 1000.0 / responses;
    }

    /** The backend's CPU milliseconds per answered request, as {@link #cpuMsPerRequest()}; NaN without a backend. */
    public double backendCpuMsPerRequest() {
        return responses == 0 ? Double.NaN : backendCpuS * 1000.0 / responses;
    }

    /** A run whose figures can back a verdict: every request answered 2xx. */
    public boolean clean() {
        return errors == 0 && ok > 0;
    }

    public double p50Ms() {
        return latency.p50Ms();
    }

    public double p99Ms() {
        return latency.p99Ms();
    }

    public double p999Ms() {
        return latency.p999Ms();
    }

    /** results.csv's columns (and the tail of advise.csv's): each written from a run and, but for the derived ones, read back. */
    public static final Column<RunResult, String> POOL = text("pool", r -> r.spec.pool().toString());
    public static final Column<RunResult, String> ENDPOINT = text("endpoint", r -> r.spec.endpoint().toString());
    public static final Column<RunResult, Integer> CONCURRENCY = integer("concurrency", r -> r.spec.concurrency());
    public static final Column<RunResult, String> MODE = text("mode", r -> r.spec.open() ? "open" : "closed");
    public static final Column<RunResult, String> OFFERED = text("offered_rps", r -> r.spec.open() ? Integer.toString(r.spec.rate()) : "");
    public static final Column<RunResult, String> CLIENT = text("client", r -> r.spec.client().label());
    public static final Column<RunResult, Integer> REPEAT = Column.<RunResult>integer("repeat", r -> r.spec.repeat()).orElse(1);
    public static final Column<RunResult, Long> REQUESTS = whole("requests", RunResult::requests);
    public static final Column<RunResult, Long> RESPONSES = whole("responses", RunResult::responses);
    public static final Column<RunResult, Long> OK = whole("ok", RunResult::ok);
    public static final Column<RunResult, Long> ERRORS = whole("errors", RunResult::errors);
    public static final Column<RunResult, Double> RPS = Column.fixed("rps", 1, RunResult::rps);
    public static final Column<RunResult, Double> WARMUP_RPS = Column.fixed("warmup_rps", 1, RunResult::warmupRps);
    public static final Column<RunResult, Double> P50 = Column.fixed("p50_ms", 2, r -> r.latency.p50Ms());
    public static final Column<RunResult, Double> P90 = Column.fixed("p90_ms", 2, r -> r.latency.p90Ms());
    public static final Column<RunResult, Double> P99 = Column.fixed("p99_ms", 2, r -> r.latency.p99Ms());
    public static final Column<RunResult, Double> P999 = Column.fixed("p999_ms", 2, r -> r.latency.p999Ms());
    public static final Column<RunResult, Double> MAX = Column.fixed("max_ms", 2, r -> r.latency.maxMs());
    public static final Column<RunResult, Double> CPU_S = Column.fixed("cpu_s", 2, RunResult::cpuS);
    public static final Column<RunResult, Long> IDLE_RSS = Column.count("idle_rss_kb", RunResult::idleRssKb);
    public static final Column<RunResult, Long> PEAK_RSS = Column.count("peak_rss_kb", RunResult::peakRssKb);
    public static final Column<RunResult, Long> PEAK_VSZ = Column.count("peak_vsz_kb", RunResult::peakVszKb);
    public static final Column<RunResult, Long> PEAK_THREADS = Column.count("peak_threads", RunResult::peakThreads);
    public static final Column<RunResult, Boolean> CLIENT_LIMITED = flag("client_limited", RunResult::clientLimited);
    public static final Column<RunResult, String> TWIN = text("twin", RunResult::twin);
    public static final Column<RunResult, Double> DURATION = Column.fixed("duration_s", 3, RunResult::durationS);
    public static final Column<RunResult, Double> CLIENT_CPU_S = Column.fixed("client_cpu_s", 2, RunResult::clientCpuS);
    public static final Column<RunResult, Double> CLIENT_CPU_PCT = Column.fixed("client_cpu_pct", 1, RunResult::clientCpuPct);
    public static final Column<RunResult, Double> SERVER_CPU_PCT = Column.fixed("server_cpu_pct", 1, RunResult::serverCpuPct);
    public static final Column<RunResult, Double> STEAL_PCT = Column.fixed("steal_pct", 1, RunResult::stealPct);
    public static final Column<RunResult, Integer> INVOCATION = Column.<RunResult>integer("invocation", RunResult::invocation).orElse(1);
    public static final Column<RunResult, Double> BACKEND_CPU = Column.fixed("backend_cpu_ms_per_req", 4, RunResult::backendCpuMsPerRequest);
    public static final Column<RunResult, String> STARTED = text("started", r -> r.when.started());
    public static final Column<RunResult, String> ENDED = text("ended", r -> r.when.ended());
    public static final Column<RunResult, String> LOAD1 = text("load1", r -> r.when.load1());
    public static final Column<RunResult, Double> LITTLE_RPS = Column.fixed("little_rps", 1, r -> r.settle.littleRps());
    public static final Column<RunResult, Double> WARMUP_LITTLE_RPS = Column.fixed("warmup_little_rps", 1, r -> r.settle.warmupLittleRps());
    public static final Column<RunResult, Boolean> WARMUP_SETTLED = maybe("warmup_settled", r -> r.settle.warmupSettled());
    /** The JIT compiler threads' and the GC's (with the VM thread's) CPU seconds over the window; "" where not recorded. */
    public static final Column<RunResult, Double> JIT_S = Column.fixed("jit_cpu_s", 3, r -> r.jvm.jitS());
    public static final Column<RunResult, Double> GC_S = Column.fixed("gc_cpu_s", 3, r -> r.jvm.gcS());
    /** Whether the warm-up ended with the JIT quiet ({@link Settle#warm}); "" where not recorded, which files from before read as. */
    public static final Column<RunResult, Boolean> WARM = maybe("warm", r -> r.settle.warm());

    /**
     * results.csv: the columns above in their order, with the derived ones (CPU per request, the marks) written beside
     * them. A run read back can be reported again under newer rules; unknown figures come back as NaN or -1, as written.
     */
    public static final Table<RunResult> TABLE = new Table<>(List.of(POOL, ENDPOINT, CONCURRENCY, MODE, OFFERED, CLIENT, REPEAT, REQUESTS,
            RESPONSES, OK, ERRORS, RPS, WARMUP_RPS, P50, P90, P99, P999, MAX, CPU_S, Column.<RunResult>fixed("cpu_ms_per_req", 4, RunResult::cpuMsPerRequest).computed(),
            IDLE_RSS, PEAK_RSS, PEAK_VSZ, PEAK_THREADS, CLIENT_LIMITED, TWIN, DURATION, CLIENT_CPU_S, CLIENT_CPU_PCT, SERVER_CPU_PCT, STEAL_PCT,
            Column.<RunResult>flag("too_short", RunResult::tooShort).computed(),
            Column.<RunResult>flag("settled", RunResult::settled).computed(), INVOCATION, BACKEND_CPU, STARTED, ENDED, LOAD1,
            LITTLE_RPS, WARMUP_LITTLE_RPS, WARMUP_SETTLED, JIT_S, GC_S, WARM), RunResult::read);

    private static RunResult read(Table.Fields f) {
        boolean open = "open".equals(f.get(MODE));
        RunSpec spec = new RunSpec(loomylin.server.jetty.PoolKind.parse(f.get(POOL)), Endpoint.parse(f.get(ENDPOINT)), f.get(CONCURRENCY),
                open ? Integer.parseInt(f.get(OFFERED)) : 0, open ? loomylin.lab.engine.load.Client.OHA : loomylin.lab.engine.load.Client.closed(f.get(CLIENT)),
                f.get(REPEAT));
        long responses = f.get(RESPONSES);
        double backendMsPerRequest = f.get(BACKEND_CPU);
        return new RunResult(spec, f.get(TWIN), f.get(REQUESTS), responses, f.get(OK), f.get(ERRORS), f.get(DURATION), f.get(RPS), f.get(WARMUP_RPS),
                new Measured.Latency(f.get(P50), f.get(P90), f.get(P99), f.get(P999), f.get(MAX)), f.get(CPU_S), f.get(IDLE_RSS), f.get(PEAK_RSS),
                f.get(PEAK_VSZ), f.get(PEAK_THREADS).intValue(), f.get(CLIENT_CPU_S), f.get(CLIENT_CPU_PCT), f.get(SERVER_CPU_PCT), f.get(CLIENT_LIMITED),
                f.get(STEAL_PCT), f.get(INVOCATION), Double.isNaN(backendMsPerRequest) ? Double.NaN : backendMsPerRequest * responses / 1000.0,
                new When(f.get(STARTED), f.get(ENDED), f.get(LOAD1)), new Settle(f.get(WARMUP_SETTLED), f.get(LITTLE_RPS), f.get(WARMUP_LITTLE_RPS), f.get(WARM)),
                Double.isNaN(f.get(JIT_S)) ? JvmCpu.NONE : new JvmCpu(f.get(CPU_S), f.get(JIT_S), f.get(GC_S)));
    }

    /** A count, or "" when unknown (negative). */
    public static String count(long value) {
        return value < 0 ? "" : Long.toString(value);
    }

    /** KiB as MiB, NaN when unknown (negative). */
    public static double mb(long kb) {
        return kb < 0 ? Double.NaN : kb / 1024.0;
    }

    /** OS threads as a number to chart or summarise, NaN when unknown (negative). */
    public double threadsOrNaN() {
        return peakThreads < 0 ? Double.NaN : peakThreads;
    }

    /** A number with {@code decimals} places, '.' as separator whatever the locale; "" for no value (NaN). */
    public static String fixed(double value, int decimals) {
        return Column.fixed(value, decimals);
    }
}
