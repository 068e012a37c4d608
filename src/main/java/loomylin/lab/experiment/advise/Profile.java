package loomylin.lab.experiment.advise;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import loomylin.server.web.Limits;
import loomylin.server.web.Params;

/**
 * The user's request as {@code advise} reads it, checked before anything runs: {@code cpuMs} of CPU, then
 * {@code waitMs} of blocking wait (a sleep, or with {@code calls} N that many consecutive downstream calls whose
 * delays add up to it), then a body of {@code bodyBytes}, at {@code rate} requests per second on a platform pool
 * of {@code threads} today. A profile the machine cannot serve or the servers cannot simulate is refused with
 * one line ({@link UsageError}, exit 2); a CPU-heavy profile, or a rate past the cores, is measured, not refused.
 */
public record Profile(double cpuMs, int waitMs, int rate, int threads, int bodyBytes, int calls) {
    /** The rates offered, as multiples of the user's. */
    public static final List<Double> MULTIPLES = List.of(1.0, 1.5, 2.0);
    public static final double CPU_MS_MAX = 1000;
    public static final int RATE_MAX = 20_000;
    /** The share of the cores' estimated capacity advise offers as "the rate the cores allow". */
    public static final double ALLOWED_SHARE = 0.7;
    /** How far past the user's rate advise goes to reach a predicted knee. */
    public static final double KNEE_REACH = 4;
    /** How far past the cores' capacity an overloaded rate is offered. */
    public static final double OVERLOAD_REACH = 2;
    /** Open connections beyond the in-flight requests: oha's pool, the server's, the JVMs' own files. */
    static final int SPARE_FILES = 200;
    static final int MIN_CONNECTIONS = 64;

    public Profile {
        if (Double.isNaN(cpuMs) || cpuMs < 0 || cpuMs > CPU_MS_MAX)
            throw new UsageError("--cpu-ms must be a number of milliseconds from 0 to " + (int) CPU_MS_MAX + ", got '" + fmt(cpuMs) + "'");
        if (waitMs < 0 || waitMs > Limits.MS_MAX)
            throw new UsageError("--wait-ms must be whole milliseconds from 0 to " + Limits.MS_MAX + ", got '" + waitMs + "'");
        if (rate < 1 || rate > RATE_MAX) throw new UsageError("--rate must be requests per second from 1 to " + RATE_MAX + ", got '" + rate + "'");
        int least = JettySetup.LOOP_THREADS + 1;
        if (threads < least || threads > PoolKind.MAX_SIZE)
            throw new UsageError("--threads must be from " + least + " (Jetty's connector leases " + JettySetup.LOOP_THREADS + ") to " + PoolKind.MAX_SIZE
                    + ", got '" + threads + "'");
        if (bodyBytes < 0 || bodyBytes > Limits.DATA_FILE_BYTES_DEFAULT)
            throw new UsageError("--body-bytes must be from 0 to " + Limits.DATA_FILE_BYTES_DEFAULT + " (the servers' data file), got '" + bodyBytes + "'");
        if (calls < 0 || calls > Limits.CALLS_MAX)
            throw new UsageError("--calls must be from 0 (the wait is a sleep) to " + Limits.CALLS_MAX + ", got '" + calls + "'");
        int hopTimeoutMs = loomylin.server.jetty.ServerOptions.DEFAULTS.hopTimeoutMs();
        if (calls > 0 && waitMs / calls >= hopTimeoutMs)
            throw new UsageError("--wait-ms " + waitMs + " over --calls " + calls + " makes each downstream call last " + waitMs / calls
                    + " ms, and the servers give a call " + hopTimeoutMs + " ms before answering 504: use more --calls");
    }

    /** Reads the flags' text strictly: a decimal for the CPU, whole numbers for the rest. */
    public static Profile parse(String cpuMs, String waitMs, String rate, String threads, String bodyBytes, String calls) {
        return new Profile(decimal("cpu-ms", cpuMs), whole("wait-ms", waitMs), whole("rate", rate), whole("threads", threads), whole("body-bytes", bodyBytes),
                whole("calls", calls));
    }

    /**
     * Refuses what this machine cannot offer: more connections at the highest rate measured than the open-file
     * limit leaves. A rate beyond the cores is not refused: it is measured beside the rate the cores allow.
     */
    public void checkMachine(int cores, OptionalLong openFiles) {
        long needed = connections(cores) + SPARE_FILES;
        if (openFiles.isPresent() && openFiles.getAsLong() < needed)
            throw new UsageError("the highest rate advise offers (" + rates(cores).getLast() + " req/s) needs about " + connections(cores)
                    + " connections open at once, but the open-file limit is " + openFiles.getAsLong() + "; raise it (ulimit -n " + needed + ") or lower --rate");
    }

    /** What the server and oha are estimated to spend per request beyond its own CPU work: the engine's estimate ({@link loomylin.lab.engine.run.FixedLoad#overheadMs}). */
    double overheadMs() {
        return loomylin.lab.engine.run.FixedLoad.overheadMs(usesBackend());
    }

    /** The requests per second this machine's cores are estimated to serve of this profile, all of them busy. */
    public double capacity(int cores) {
        return cores * 1000.0 / (cpuMs + overheadMs());
    }

    /** The rate the cores allow with room to spare: {@link #ALLOWED_SHARE} of {@link #capacity}, at least 1. */
    public int allowedRate(int cores) {
        return (int) Math.max(1, Math.floor(ALLOWED_SHARE * capacity(cores)));
    }

    /** Whether the user's rate is past what the cores allow: then advise measures the allowed rate beside it. */
    public boolean overloaded(int cores) {
        return rate > allowedRate(cores);
    }

    /**
     * The knee advise predicts for a pool: the lower of Little's law's and the cores' estimated capacity (from the
     * asked CPU; the page's knee table uses the measured CPU).
     */
    public double predictedKnee(PoolKind pool, int cores) {
        return Math.min(littleKnee(pool, serviceS()), capacity(cores));
    }

    /**
     * The rates offered. Within the cores: the user's, 1.5x and 2x it, and, where the lowest knee predicted for the
     * user's pool or loom lies past 2x and within {@link #KNEE_REACH}x, a rate a tenth past that knee, so that the
     * knee is measured. Past the cores: the rate they allow, then the user's, at most {@link #OVERLOAD_REACH}x
     * the capacity (an overload farther out shows nothing more and only queues).
     */
    public List<Integer> rates(int cores) {
        if (overloaded(cores))
            return java.util.stream.Stream.of(allowedRate(cores), (int) Math.min(rate, Math.ceil(OVERLOAD_REACH * capacity(cores)))).distinct().sorted().toList();
        List<Integer> rates = new java.util.ArrayList<>(MULTIPLES.stream().map(m -> (int) Math.round(rate * m)).distinct().toList());
        double knee = Math.min(predictedKnee(PoolKind.qtp(threads), cores), predictedKnee(PoolKind.loom(), cores));
        if (knee > rates.getLast() && knee <= KNEE_REACH * rate) rates.add((int) Math.min(RATE_MAX, Math.ceil(1.1 * knee)));
        return rates.stream().distinct().sorted().toList();
    }

    /** Seconds one request takes without queueing: its CPU and its wait. */
    public double serviceS() {
        return (cpuMs + waitMs) / 1000.0;
    }

    /**
     * oha's connections: four times what Little's law holds in flight at the highest rate offered, so that a pool
     * that queues can still be offered the rate, and at least {@link #MIN_CONNECTIONS}.
     */
    public int connections(int cores) {
        return (int) Math.max(MIN_CONNECTIONS, Math.ceil(4.0 * rates(cores).getLast() * serviceS()));
    }

    /**
     * Little's law's knee of a platform pool of {@code threads}: its request threads over a request's time; infinite without a thread cap.
     * A growing {@code qtp:MIN-MAX}'s knee is at MAX, its {@link PoolKind#size}.
     */
    public static double littleKnee(PoolKind pool, double serviceS) {
        if (pool.type() != PoolKind.Type.QTP) return Double.POSITIVE_INFINITY;
        return (pool.size() - JettySetup.LOOP_THREADS) / serviceS;
    }

    /** The CPU's knee: all cores busy at {@code cpuMsPerRequest} each. */
    public static double cpuKnee(int cores, double cpuMsPerRequest) {
        return cpuMsPerRequest > 0 ? cores * 1000.0 / cpuMsPerRequest : Double.POSITIVE_INFINITY;
    }

    /** Whether the wait is made of calls to the backend, which then must run. */
    public boolean usesBackend() {
        return calls > 0;
    }

    /** The /mixed query that simulates this request with {@code iterations} SHA-256 iterations for its CPU. */
    public String query(int iterations) {
        return "mixed?cpu=" + iterations + "&sleep=" + waitMs + "&file=" + bodyBytes + (calls > 0 ? "&calls=" + calls : "");
    }

    static String fmt(double ms) {
        return ms == Math.rint(ms) && !Double.isInfinite(ms) ? Long.toString((long) ms) : String.format(Locale.ROOT, "%s", ms);
    }

    private static double decimal(String flag, String text) {
        if (text == null) throw new UsageError("advise needs --" + flag);
        String t = text.trim();
        if (!t.matches("-?\\d{1,7}(\\.\\d{1,6})?"))
            throw new UsageError("--" + flag + " must be a number of milliseconds such as 2 or 0.5, got '" + Params.printable(text) + "'");
        return Double.parseDouble(t);
    }

    private static int whole(String flag, String text) {
        if (text == null) throw new UsageError("advise needs --" + flag);
        String t = text.trim();
        if (!t.matches("-?\\d{1,9}")) throw new UsageError("--" + flag + " must be a whole number, got '" + Params.printable(text) + "'");
        return Integer.parseInt(t);
    }
}
