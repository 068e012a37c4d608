package loomylin.advise;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import loomylin.cli.UsageError;
import loomylin.jetty.JettySetup;
import loomylin.jetty.PoolKind;
import loomylin.web.Limits;
import loomylin.web.Params;

/**
 * The user's request as {@code advise} reads it, checked before anything runs: {@code cpuMs} of CPU, then
 * {@code waitMs} of blocking wait (a sleep, or with {@code calls} N that many consecutive downstream calls whose
 * delays add up to it), then a body of {@code bodyBytes}, at {@code rate} requests per second on a platform pool
 * of {@code threads} today. A profile the machine cannot serve or the servers cannot simulate is refused with
 * one line ({@link UsageError}, exit 2).
 */
public record Profile(double cpuMs, int waitMs, int rate, int threads, int bodyBytes, int calls) {
    /** The rates offered, as multiples of the user's. */
    public static final List<Double> MULTIPLES = List.of(1.0, 1.5, 2.0);
    public static final double CPU_MS_MAX = 1000;
    public static final int RATE_MAX = 20_000;
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
        int hopTimeoutMs = loomylin.jetty.ServerOptions.DEFAULTS.hopTimeoutMs();
        if (calls > 0 && waitMs / calls >= hopTimeoutMs)
            throw new UsageError("--wait-ms " + waitMs + " over --calls " + calls + " makes each downstream call last " + waitMs / calls
                    + " ms, and the servers give a call " + hopTimeoutMs + " ms before answering 504: use more --calls");
        if (waitMs < cpuMs)
            throw new UsageError("--wait-ms " + waitMs + " is shorter than --cpu-ms " + fmt(cpuMs) + ": advise compares pools for requests that wait at least as long"
                    + " as they compute; CPU-bound work gains no capacity from virtual threads (docs/results.md, CPU-bound work)");
    }

    /** Reads the flags' text strictly: a decimal for the CPU, whole numbers for the rest. */
    public static Profile parse(String cpuMs, String waitMs, String rate, String threads, String bodyBytes, String calls) {
        return new Profile(decimal("cpu-ms", cpuMs), whole("wait-ms", waitMs), whole("rate", rate), whole("threads", threads), whole("body-bytes", bodyBytes),
                whole("calls", calls));
    }

    /**
     * Refuses a profile this machine cannot offer: a rate whose CPU alone needs more than its cores, or more
     * connections at twice the rate than the open-file limit leaves.
     */
    public void checkMachine(int cores, OptionalLong openFiles) {
        double coresNeeded = rate * cpuMs / 1000.0;
        if (coresNeeded >= cores)
            throw new UsageError(String.format(Locale.ROOT, "--rate %d x --cpu-ms %s needs %.1f cores of CPU for the handlers alone, and this machine has %d:"
                    + " no pool can serve that rate here; lower --rate or --cpu-ms", rate, fmt(cpuMs), coresNeeded, cores));
        long needed = connections() + SPARE_FILES;
        if (openFiles.isPresent() && openFiles.getAsLong() < needed)
            throw new UsageError("twice --rate " + rate + " needs about " + connections() + " connections open at once, but the open-file limit is "
                    + openFiles.getAsLong() + "; raise it (ulimit -n " + needed + ") or lower --rate");
    }

    /** Seconds one request takes without queueing: its CPU and its wait. */
    public double serviceS() {
        return (cpuMs + waitMs) / 1000.0;
    }

    public List<Integer> rates() {
        return MULTIPLES.stream().map(m -> (int) Math.round(rate * m)).distinct().toList();
    }

    /**
     * oha's connections: four times what Little's law holds in flight at twice the rate, so that a pool
     * that queues can still be offered the rate, and at least {@link #MIN_CONNECTIONS}.
     */
    public int connections() {
        return (int) Math.max(MIN_CONNECTIONS, Math.ceil(4 * 2.0 * rate * serviceS()));
    }

    /** Little's law's knee of a platform pool of {@code threads}: its request threads over a request's time; infinite without a thread cap. */
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
