package loomylin.server.admin;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import loomylin.server.db.DbFigures;
import loomylin.server.db.DbPool;
import loomylin.server.jetty.Admission;
import loomylin.server.web.SchedulerFigures;
import loomylin.server.jetty.RequestCounts;

/**
 * What the live view shows, from the servers' own counters: a sampler reads every server's
 * {@link RequestCounts} four times a second and keeps the last seconds, so that completed requests per second
 * and p50/p99 latency describe the recent past, not the whole run. Everything else is read when asked.
 */
final class LiveFigures implements AutoCloseable {
    static final long SAMPLE_MS = 250;
    /** Requests per second over this window. */
    static final long RATE_WINDOW_MS = 2_000;
    /** p50 and p99 over this window. */
    static final long LATENCY_WINDOW_MS = 3_000;

    /** {@code waits}: the in-flight limit's admission waits per bucket, or null for a server without a limit. */
    private record Sample(long atNanos, long answers, long[] buckets, long[] waits) {
    }

    private final List<Watched> servers;
    private final ThreadOwners owners;
    private final VirtualThreadScheduler scheduler;
    private final PinnedThreads pins;
    private final List<Deque<Sample>> history = new ArrayList<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("admin-sampler").daemon(true).factory());
    private final long startNanos = System.nanoTime();

    LiveFigures(List<Watched> servers, ThreadOwners owners, VirtualThreadScheduler scheduler, PinnedThreads pins) {
        this.servers = servers;
        this.owners = owners;
        this.scheduler = scheduler;
        this.pins = pins;
        for (int i = 0; i < servers.size(); i++) history.add(new ArrayDeque<>());
        sample();
        sampler.scheduleAtFixedRate(this::sample, SAMPLE_MS, SAMPLE_MS, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        long now = System.nanoTime();
        for (int i = 0; i < servers.size(); i++) {
            RequestCounts c = servers.get(i).counts();
            long answers = 0;
            for (long n : c.answers()) answers += n;
            Deque<Sample> h = history.get(i);
            synchronized (h) {
                long[] waits = servers.get(i).admission().map(Admission::waitBuckets).orElse(null);
                h.addLast(new Sample(now, answers, c.latencyBuckets(), waits));
                while (h.size() > 2 && now - h.peekFirst().atNanos() > TimeUnit.MILLISECONDS.toNanos(LATENCY_WINDOW_MS + SAMPLE_MS)) h.removeFirst();
            }
        }
    }

    /** One reading for the page: per server, the process's threads, the scheduler. */
    Map<String, Object> read() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("atMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) list.add(server(servers.get(i), history.get(i)));
        out.put("servers", list);
        out.put("threads", owners.count());
        VirtualThreadScheduler.Reading vt = scheduler.read();
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("known", vt.known());
        // "n/a", not -1, where the JDK does not tell (before JDK 24)
        v.put("parallelism", vt.known() ? vt.parallelism() : SchedulerFigures.NOT_KNOWN);
        v.put("carriers", vt.known() ? vt.carriers() : SchedulerFigures.NOT_KNOWN);
        v.put("mounted", vt.known() ? vt.mounted() : SchedulerFigures.NOT_KNOWN);
        v.put("queued", vt.known() ? vt.queued() : SchedulerFigures.NOT_KNOWN);
        v.put("utilisation", vt.known() ? Math.round(vt.utilisation() * 100) / 100.0 : SchedulerFigures.NOT_KNOWN);
        PinnedThreads.Reading pinned = pins.read();
        v.put("pinned", pinned.known() ? pinned.pinned() : SchedulerFigures.NOT_KNOWN);
        v.put("pinnedSeconds", pinned.known() ? Math.round(pinned.seconds() * 1000) / 1000.0 : SchedulerFigures.NOT_KNOWN);
        v.put("pinnedWhere", pinned.where());
        out.put("virtualThreads", v);
        return out;
    }

    private static Map<String, Object> server(Watched w, Deque<Sample> h) {
        Sample last;
        Sample rateFrom;
        Sample latencyFrom;
        synchronized (h) {
            last = h.peekLast();
            rateFrom = oldestWithin(h, last.atNanos(), RATE_WINDOW_MS);
            latencyFrom = h.peekFirst();
        }
        PoolFigures pool = w.poolFigures();
        RequestCounts counts = w.counts();
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("port", w.port());
        s.put("pool", w.pool());
        s.put("inFlight", counts.inFlight());
        s.put("maxInFlight", counts.maxInFlight());
        s.put("requestLimit", pool.requestLimit() >= 0 ? pool.requestLimit() : null);
        double seconds = (last.atNanos() - rateFrom.atNanos()) / 1e9;
        s.put("rps", seconds > 0 ? Math.round((last.answers() - rateFrom.answers()) / seconds * 10) / 10.0 : 0);
        long[] window = difference(last.buckets(), latencyFrom.buckets());
        s.put("p50Ms", percentileMs(window, 0.50));
        s.put("p99Ms", percentileMs(window, 0.99));
        s.put("osThreads", pool.platformThreads());
        s.put("minThreads", pool.minThreads() >= 0 ? pool.minThreads() : null);
        s.put("maxThreads", pool.maxThreads() >= 0 ? pool.maxThreads() : null);
        s.put("busy", pool.busy());
        s.put("idle", pool.idle());
        s.put("queued", pool.queued());
        s.put("leased", pool.leased());
        s.put("virtualStarted", pool.virtualStarted() >= 0 ? pool.virtualStarted() : null);
        s.put("tasksRunning", pool.tasksRunning() >= 0 ? pool.tasksRunning() : null);
        s.put("tasksWaiting", pool.tasksWaiting() >= 0 ? pool.tasksWaiting() : null);
        Optional<Admission> admission = w.admission();
        s.put("admission", admission.map(a -> a.setting().toString()).orElse(null));
        s.put("admissionAlgorithm", admission.map(a -> a.setting().algorithmName()).orElse(null));
        s.put("admissionLimit", admission.map(Admission::limit).orElse(null));
        s.put("admissionLimitMin", admission.map(Admission::min).orElse(null));
        s.put("admissionLimitMax", admission.map(Admission::max).orElse(null));
        s.put("admitted", admission.map(Admission::admitted).orElse(null));
        s.put("admissionQueued", admission.map(Admission::queued).orElse(null));
        s.put("admissionRefused", admission.map(Admission::refused).orElse(null));
        s.put("admissionDropped", admission.map(Admission::dropped).orElse(null));
        s.put("admissionWaitP99Ms", last.waits() == null || latencyFrom.waits() == null ? null
                : percentileMs(difference(last.waits(), latencyFrom.waits()), 0.99));
        Optional<DbFigures> db = w.db().map(DbPool::figures);
        s.put("dbSize", db.map(DbFigures::size).orElse(null));
        s.put("dbActive", db.map(DbFigures::activeEither).orElse(null));
        s.put("dbPending", db.map(DbFigures::pendingEither).orElse(null));
        s.put("dbTimeouts", db.map(DbFigures::timeoutsEither).orElse(null));
        return s;
    }

    private static long[] difference(long[] later, long[] earlier) {
        long[] window = new long[later.length];
        for (int i = 0; i < window.length; i++) window[i] = later[i] - earlier[i];
        return window;
    }

    private static Sample oldestWithin(Deque<Sample> h, long now, long windowMs) {
        for (Sample s : h) {
            if (now - s.atNanos() <= TimeUnit.MILLISECONDS.toNanos(windowMs)) return s;
        }
        return h.peekLast();
    }

    /**
     * The q-quantile of the answers in {@code buckets} (per-bucket counts, bounds as in
     * {@link RequestCounts#BUCKETS_SECONDS}), interpolated linearly inside its bucket; null without answers.
     */
    static Double percentileMs(long[] buckets, double q) {
        long total = 0;
        for (long n : buckets) total += n;
        if (total == 0) return null;
        double rank = q * total;
        long seen = 0;
        double[] bounds = RequestCounts.BUCKETS_SECONDS;
        for (int i = 0; i < buckets.length; i++) {
            if (buckets[i] > 0 && seen + buckets[i] >= rank) {
                double lower = i == 0 ? 0 : bounds[i - 1];
                if (i == bounds.length) return Math.round(lower * 1000 * 10) / 10.0; // beyond the last bound
                double upper = bounds[i];
                double within = (rank - seen) / buckets[i];
                return Math.round((lower + (upper - lower) * within) * 1000 * 10) / 10.0;
            }
            seen += buckets[i];
        }
        return bounds[bounds.length - 1] * 1000;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
