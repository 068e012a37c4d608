package loomylin.server.admin;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import loomylin.server.db.DbFigures;
import loomylin.server.db.DbPool;
import loomylin.server.jetty.Admission;
import loomylin.server.jetty.RequestCounts;

/**
 * /metrics: the Prometheus text exposition format, written by the Prometheus Java client. The client's JVM
 * and process metrics ({@code process_*} from {@code /proc/self}: CPU seconds, resident and virtual memory,
 * open file descriptors; {@code jvm_*}: threads, GC, memory) plus Loomylin's own, per server port:
 * {@code loomylin_requests_total} by status class, in flight and its high-water mark, a latency histogram,
 * the pool's threads by state and its queue, a QueuedThreadPool's min and max threads, virtual threads started, a capped VirtualThreadPool's tasks running
 * and waiting for a permit, and the in-flight limit's value (fixed or auto), admitted requests, queue, waits,
 * refusals and completions; and for
 * the process, OS threads by owner, the virtual-thread scheduler (carriers, virtual threads mounted and
 * waiting for a carrier, carrier utilisation) and pinned virtual threads ({@link PinnedThreads}).
 * docs/reference/live-view-and-metrics.md lists every series.
 */
final class Metrics {
    static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    Metrics(List<Watched> servers, ThreadOwners owners, VirtualThreadScheduler scheduler, PinnedThreads pins) {
        this(() -> servers, owners, scheduler, pins);
    }

    /** Servers read at every scrape: the agent's come as the application builds them. */
    Metrics(Supplier<List<Watched>> servers, ThreadOwners owners, VirtualThreadScheduler scheduler, PinnedThreads pins) {
        JvmMetrics.builder().register(registry);
        registry.register((MultiCollector) () -> collect(servers.get(), owners, scheduler, pins));
    }

    String scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 * 1024);
        try {
            writer.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static MetricSnapshots collect(List<Watched> servers, ThreadOwners owners, VirtualThreadScheduler scheduler, PinnedThreads pins) {
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        InfoSnapshot.Builder info = InfoSnapshot.builder().name("loomylin_server").help("One per server port: the pool it runs on");
        CounterSnapshot.Builder requests = CounterSnapshot.builder().name("loomylin_requests")
                .help("Answers by status class, every one counted (the 503s of --max-in-flight and of a graceful stop included); failed = the connection failed before the answer completed");
        HistogramSnapshot.Builder latency = HistogramSnapshot.builder().name("loomylin_request_duration_seconds")
                .help("Time from the parsed request reaching the server's handlers to its answer completing");
        GaugeSnapshot.Builder threads = GaugeSnapshot.builder().name("loomylin_pool_threads")
                .help("The server pool's threads by state, as the pool counts them (busy includes virtual threads running)");
        CounterSnapshot.Builder started = CounterSnapshot.builder().name("loomylin_pool_virtual_threads_started")
                .help("Virtual threads the server's pool started (pools that count them)");
        boolean anyStarted = false;
        boolean anyCounts = false;
        double[] bounds = new double[RequestCounts.BUCKETS_SECONDS.length + 1];
        System.arraycopy(RequestCounts.BUCKETS_SECONDS, 0, bounds, 0, RequestCounts.BUCKETS_SECONDS.length);
        bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
        GaugeSnapshot.Builder limit = GaugeSnapshot.builder().name("loomylin_pool_request_limit")
                .help("Most requests the pool can run at once: a platform pool's maxThreads minus those Jetty's acceptor and selector hold, or a VirtualThreadPool's task cap (unbounded virtual-thread pools have none)");
        boolean anyLimit = false;
        GaugeSnapshot.Builder tasksRunning = GaugeSnapshot.builder().name("loomylin_pool_tasks_running")
                .help("Tasks holding one of a capped VirtualThreadPool's permits (jetty-vtp:M, qtp-vtp:N:M)");
        GaugeSnapshot.Builder tasksWaiting = GaugeSnapshot.builder().name("loomylin_pool_tasks_waiting")
                .help("Tasks parked on their own virtual thread for a capped VirtualThreadPool's permit: requests, and on jetty-vtp:M also Jetty's own I/O tasks");
        boolean anyTasks = false;
        GaugeSnapshot.Builder minThreads = GaugeSnapshot.builder().name("loomylin_pool_min_threads")
                .help("A QueuedThreadPool's minThreads: the threads it starts with and keeps (MIN of qtp:MIN-MAX, all N of qtp:N)");
        GaugeSnapshot.Builder maxThreads = GaugeSnapshot.builder().name("loomylin_pool_max_threads")
                .help("A QueuedThreadPool's maxThreads: the most threads it grows to; loomylin_pool_threads{state=\"platform\"} is where it is now");
        boolean anyBounds = false;
        GaugeSnapshot.Builder admissionLimit = GaugeSnapshot.builder().name("loomylin_admission_limit")
                .help("--max-in-flight: the most requests the admission limit admits at once now, fixed or where auto has moved it (servers with a limit only)");
        GaugeSnapshot.Builder admissionBounds = GaugeSnapshot.builder().name("loomylin_admission_limit_bound")
                .help("The least (bound=min) and most (bound=max) the admission limit can be: both the fixed limit, or auto's bounds");
        InfoSnapshot.Builder admissionAlgorithm = InfoSnapshot.builder().name("loomylin_admission_algorithm")
                .help("What sets the admission limit: fixed (--max-in-flight N) or auto's algorithm (gradient2, vegas, aimd)");
        CounterSnapshot.Builder admissionCompleted = CounterSnapshot.builder().name("loomylin_admission_completed")
                .help("Admitted requests completed, by how their slot went back: success = an answer below 500, dropped = a 503 or 504 or a response failed by a timeout, ignored = another 5xx or a failed connection");
        GaugeSnapshot.Builder admitted = GaugeSnapshot.builder().name("loomylin_admission_in_flight")
                .help("Requests the limit admitted that have not completed: at the limit, the server is full");
        GaugeSnapshot.Builder admissionQueued = GaugeSnapshot.builder().name("loomylin_admission_queued")
                .help("Requests the limit suspended, waiting for a slot");
        CounterSnapshot.Builder refused = CounterSnapshot.builder().name("loomylin_admission_refused")
                .help("Requests the limit answered 503: expired = waited --max-in-flight-wait-ms without a slot, queue_full = refused at once");
        HistogramSnapshot.Builder admissionWait = HistogramSnapshot.builder().name("loomylin_admission_wait_seconds")
                .help("How long each admitted request waited for its slot");
        boolean anyAdmission = false;
        GaugeSnapshot.Builder dbSize = GaugeSnapshot.builder().name("loomylin_db_pool_size")
                .help("--db-pool: the connections the server's database pool keeps (servers with a database only)");
        GaugeSnapshot.Builder dbConnections = GaugeSnapshot.builder().name("loomylin_db_connections")
                .help("The server's database connections by client (jdbc = HikariCP for /db-blocking, vertx = Vert.x for /db-async) and state: "
                        + "active = lent to a request, idle = in the pool, total = open (jdbc only)");
        GaugeSnapshot.Builder dbPending = GaugeSnapshot.builder().name("loomylin_db_pending")
                .help("Requests waiting for a database connection now, by client: with a thread per request unbounded, the queue is here");
        CounterSnapshot.Builder dbAcquired = CounterSnapshot.builder().name("loomylin_db_connections_acquired")
                .help("Database connections the pool handed to requests, by client");
        CounterSnapshot.Builder dbWait = CounterSnapshot.builder().name("loomylin_db_connection_wait_seconds")
                .help("Time requests spent waiting for a database connection, summed, by client (divide by acquired for the mean; vertx: timeouts included)");
        CounterSnapshot.Builder dbTimeouts = CounterSnapshot.builder().name("loomylin_db_connection_timeouts")
                .help("Requests that waited --db-timeout-ms for a connection and got none (each answered 503), by client");
        boolean anyDb = false;
        for (Watched w : servers) {
            Labels port = Labels.of("port", String.valueOf(w.port()), "pool", w.pool());
            info.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(port).build());
            RequestCounts counts = w.counts();
            if (counts != null) { // a server Loomylin built; the agent's servers are the application's, without its handler chain
                anyCounts = true;
                long[] answers = counts.answers();
                for (int i = 0; i < answers.length; i++) {
                    requests.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                            .labels(port.add("status", RequestCounts.CLASSES[i])).value(answers[i]).build());
                }
                latency.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(port)
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts.latencyBuckets()))
                        .sum(counts.latencySecondsTotal()).build());
            }
            PoolFigures pool = w.poolFigures();
            for (Map.Entry<String, Integer> state : List.of(Map.entry("busy", pool.busy()), Map.entry("idle", pool.idle()),
                    Map.entry("leased", pool.leased()), Map.entry("platform", pool.platformThreads()))) {
                threads.dataPoint(gauge(port.add("state", state.getKey()), state.getValue()));
            }
            if (pool.virtualStarted() >= 0) {
                anyStarted = true;
                started.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(port).value(pool.virtualStarted()).build());
            }
            if (pool.requestLimit() >= 0) {
                anyLimit = true;
                limit.dataPoint(gauge(port, pool.requestLimit()));
            }
            if (pool.maxThreads() >= 0) {
                anyBounds = true;
                minThreads.dataPoint(gauge(port, pool.minThreads()));
                maxThreads.dataPoint(gauge(port, pool.maxThreads()));
            }
            if (pool.tasksRunning() >= 0) {
                anyTasks = true;
                tasksRunning.dataPoint(gauge(port, pool.tasksRunning()));
                tasksWaiting.dataPoint(gauge(port, pool.tasksWaiting()));
            }
            Optional<DbPool> db = w.db();
            if (db.isPresent()) {
                anyDb = true;
                DbFigures f = db.get().figures();
                DbFigures.Async a = f.async();
                dbSize.dataPoint(gauge(port, f.size()));
                Labels jdbc = port.add("client", "jdbc");
                Labels vertx = port.add("client", "vertx");
                for (Map.Entry<String, Integer> state : List.of(Map.entry("active", f.active()), Map.entry("idle", f.idle()), Map.entry("total", f.total())))
                    dbConnections.dataPoint(gauge(jdbc.add("state", state.getKey()), state.getValue()));
                dbConnections.dataPoint(gauge(vertx.add("state", "active"), a.active()));
                dbPending.dataPoint(gauge(jdbc, f.pending()));
                dbPending.dataPoint(gauge(vertx, a.pending()));
                dbAcquired.dataPoint(counter(jdbc, f.acquired()));
                dbAcquired.dataPoint(counter(vertx, a.acquired()));
                dbWait.dataPoint(counter(jdbc, f.waitSeconds()));
                dbWait.dataPoint(counter(vertx, a.waitSeconds()));
                dbTimeouts.dataPoint(counter(jdbc, f.timeouts()));
                dbTimeouts.dataPoint(counter(vertx, a.timeouts()));
            }
            Optional<Admission> admission = w.admission();
            if (admission.isPresent()) {
                Admission a = admission.get();
                anyAdmission = true;
                admissionLimit.dataPoint(gauge(port, a.limit()));
                admissionBounds.dataPoint(gauge(port.add("bound", "min"), a.min()));
                admissionBounds.dataPoint(gauge(port.add("bound", "max"), a.max()));
                admissionAlgorithm.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(port.add("algorithm", a.setting().algorithmName())).build());
                admissionCompleted.dataPoint(counter(port.add("outcome", "success"), a.succeeded()));
                admissionCompleted.dataPoint(counter(port.add("outcome", "dropped"), a.dropped()));
                admissionCompleted.dataPoint(counter(port.add("outcome", "ignored"), a.ignored()));
                admitted.dataPoint(gauge(port, a.admitted()));
                admissionQueued.dataPoint(gauge(port, a.queued()));
                refused.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(port.add("reason", "expired")).value(a.expired()).build());
                refused.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(port.add("reason", "queue_full")).value(a.rejected()).build());
                admissionWait.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(port)
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, a.waitBuckets())).sum(a.waitSecondsTotal()).build());
            }
        }
        all.metricSnapshot(info.build());
        if (anyCounts) all.metricSnapshot(requests.build()).metricSnapshot(latency.build());
        all.metricSnapshot(threads.build());
        if (anyCounts) {
            List<Watched> counted = servers.stream().filter(w -> w.counts() != null).toList();
            all.metricSnapshot(perServer("loomylin_requests_in_flight", "Requests the server's handlers hold now", counted, w -> w.counts().inFlight()));
            all.metricSnapshot(perServer("loomylin_requests_in_flight_max", "Most requests in flight at once since start", counted, w -> w.counts().maxInFlight()));
        }
        all.metricSnapshot(perServer("loomylin_pool_queued_tasks", "Tasks (requests) waiting in the pool's queue for a thread", servers, w -> w.poolFigures().queued()));
        if (anyStarted) all.metricSnapshot(started.build());
        if (anyLimit) all.metricSnapshot(limit.build());
        if (anyBounds) all.metricSnapshot(minThreads.build()).metricSnapshot(maxThreads.build());
        if (anyTasks) all.metricSnapshot(tasksRunning.build()).metricSnapshot(tasksWaiting.build());
        if (anyAdmission) {
            all.metricSnapshot(admissionLimit.build()).metricSnapshot(admissionBounds.build()).metricSnapshot(admissionAlgorithm.build())
                    .metricSnapshot(admitted.build()).metricSnapshot(admissionQueued.build()).metricSnapshot(refused.build())
                    .metricSnapshot(admissionCompleted.build()).metricSnapshot(admissionWait.build());
        }
        if (anyDb) {
            all.metricSnapshot(dbSize.build()).metricSnapshot(dbConnections.build()).metricSnapshot(dbPending.build())
                    .metricSnapshot(dbAcquired.build()).metricSnapshot(dbWait.build()).metricSnapshot(dbTimeouts.build());
        }

        GaugeSnapshot.Builder byOwner = GaugeSnapshot.builder().name("loomylin_os_threads")
                .help("The process's OS threads by owner: each server port's pool, the in-process backend, the admin port, the virtual-thread carriers, the JVM's own (GC, JIT, timers, HTTP clients), and the total");
        owners.count().forEach((owner, n) -> byOwner.dataPoint(gauge(Labels.of("owner", owner), n)));
        all.metricSnapshot(byOwner.build());

        VirtualThreadScheduler.Reading vt = scheduler.read();
        if (vt.known()) {
            all.metricSnapshot(single("loomylin_virtual_thread_scheduler_parallelism", "Carrier threads the scheduler aims for", vt.parallelism()));
            all.metricSnapshot(single("loomylin_virtual_thread_scheduler_carriers", "Carrier threads alive", vt.carriers()));
            all.metricSnapshot(single("loomylin_virtual_threads_mounted", "Virtual threads mounted on a carrier now", vt.mounted()));
            all.metricSnapshot(single("loomylin_virtual_threads_queued", "Virtual threads waiting for a carrier", vt.queued()));
            all.metricSnapshot(single("loomylin_virtual_thread_carrier_utilisation",
                    "Virtual threads mounted per carrier the scheduler aims for (mounted / parallelism): 1 = every carrier busy", vt.utilisation()));
        }
        PinnedThreads.Reading pinned = pins.read();
        if (pinned.known()) {
            all.metricSnapshot(CounterSnapshot.builder().name("loomylin_virtual_threads_pinned")
                    .help("Virtual threads pinned to their carrier while they blocked (JFR jdk.VirtualThreadPinned, every pin however short): inside synchronized on JDK 21, in native code or a class initialiser on any JDK")
                    .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(pinned.pinned()).build()).build());
            all.metricSnapshot(CounterSnapshot.builder().name("loomylin_virtual_threads_pinned_seconds")
                    .help("Time virtual threads spent pinned to their carrier, summed over every pin")
                    .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(pinned.seconds()).build()).build());
        }
        return all.build();
    }

    private static GaugeSnapshot perServer(String name, String help, List<Watched> servers, ToDoubleFunction<Watched> value) {
        GaugeSnapshot.Builder g = GaugeSnapshot.builder().name(name).help(help);
        for (Watched w : servers) g.dataPoint(gauge(Labels.of("port", String.valueOf(w.port()), "pool", w.pool()), value.applyAsDouble(w)));
        return g.build();
    }

    private static GaugeSnapshot single(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help).dataPoint(gauge(Labels.EMPTY, value)).build();
    }

    private static GaugeSnapshot.GaugeDataPointSnapshot gauge(Labels labels, double value) {
        return GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    private static CounterSnapshot.CounterDataPointSnapshot counter(Labels labels, double value) {
        return CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }
}
