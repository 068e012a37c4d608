package loomylin.lab.experiment.bound;

import java.net.URI;
import java.time.Duration;
import loomylin.lab.engine.measure.HttpGet;
import loomylin.lab.engine.measure.Periodic;
import loomylin.lab.engine.measure.PrometheusText;
import loomylin.server.cli.StartupFailure;

/**
 * Scrapes one server JVM's admin {@code /metrics} every {@code every} while the load runs and keeps the peaks
 * of where requests wait at the bound: Jetty's queue (a platform pool's tasks waiting for a thread), the
 * in-flight limit's queue, a capped VirtualThreadPool's tasks waiting for a permit, virtual threads waiting for
 * a carrier; and the heap used. A series the server does not have stays -1; a scrape that fails (the admin port
 * too starved to answer within {@link HttpGet#TIMEOUT}) is counted and skipped. Every good scrape is also kept as
 * a line of {@link #SERIES_HEADER} (seconds since {@link #start}), to see which figure rises first.
 */
final class QueueSampler implements AutoCloseable {

    /** The peaks seen so far; -1 = the server has no such series (or no scrape succeeded). */
    record Peaks(double poolQueued, double admissionQueued, double tasksWaiting, double carrierQueued, double heapUsedBytes,
                 int samples, int failed) {
    }

    /** A column of the series: the /metrics sample it shows (the first, or the first with the label {@code label[0]} = {@code label[1]}). */
    private record Figure(String column, String metric, String... label) {
    }

    private static final java.util.List<Figure> FIGURES = java.util.List.of(new Figure("requests_in_flight", "loomylin_requests_in_flight"),
            new Figure("admission_in_flight", "loomylin_admission_in_flight"), new Figure("admission_queued", "loomylin_admission_queued"),
            new Figure("pool_queued", "loomylin_pool_queued_tasks"), new Figure("tasks_running", "loomylin_pool_tasks_running"),
            new Figure("tasks_waiting", "loomylin_pool_tasks_waiting"), new Figure("carrier_utilisation", "loomylin_virtual_thread_carrier_utilisation"),
            new Figure("carrier_queued", "loomylin_virtual_threads_queued"), new Figure("os_threads", "loomylin_os_threads", "owner", "total"));
    static final String SERIES_HEADER = "t_s," + String.join(",", FIGURES.stream().map(Figure::column).toList());

    private final URI url;
    private final java.util.List<String> series = new java.util.ArrayList<>();
    private long startNanos;
    private final Duration every;
    private final Periodic periodic;
    private double poolQueued = -1;
    private double admissionQueued = -1;
    private double tasksWaiting = -1;
    private double carrierQueued = -1;
    private double heapUsed = -1;
    private int samples;
    private int failed;

    QueueSampler(URI metrics, Duration every) {
        this.url = metrics;
        this.every = every;
        this.periodic = new Periodic("bound-queue-sampler", every, this::sampleOnce);
    }

    void start() {
        startNanos = System.nanoTime();
        periodic.start();
    }

    /** The heap in use now, from the first of three scrapes that succeeds; -1 if none does. */
    static double heapUsedBytes(URI metrics) {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return heap(PrometheusText.parse(HttpGet.ok("metrics", metrics)));
            } catch (StartupFailure | IllegalArgumentException e) {
                // the admin port not up yet, or too busy: try again
            }
        }
        return -1;
    }

    void sampleOnce() {
        PrometheusText m;
        try {
            m = PrometheusText.parse(HttpGet.ok("metrics", url));
        } catch (StartupFailure | IllegalArgumentException e) {
            synchronized (this) {
                failed++;
            }
            return;
        }
        synchronized (this) {
            samples++;
            poolQueued = Math.max(poolQueued, max(m, "loomylin_pool_queued_tasks"));
            admissionQueued = Math.max(admissionQueued, max(m, "loomylin_admission_queued"));
            tasksWaiting = Math.max(tasksWaiting, max(m, "loomylin_pool_tasks_waiting"));
            carrierQueued = Math.max(carrierQueued, max(m, "loomylin_virtual_threads_queued"));
            heapUsed = Math.max(heapUsed, heap(m));
            series.add(loomylin.lab.engine.run.RunResult.fixed((System.nanoTime() - startNanos) / 1e9, 2) + ","
                    + String.join(",", FIGURES.stream().map(f -> figure(m, f.metric(), f.label())).toList()));
        }
    }

    /** The scrapes so far, one line of {@link #SERIES_HEADER} each. */
    synchronized java.util.List<String> series() {
        return java.util.List.copyOf(series);
    }

    /** The first sample of the name (with the label, if given) as a number, or "" when the server has none. */
    private static String figure(PrometheusText m, String name, String... label) {
        return m.all(name).stream().filter(s -> label.length == 0 || label[1].equals(s.labels().get(label[0])))
                .map(s -> loomylin.lab.engine.run.RunResult.fixed(s.value(), 2)).findFirst().orElse("");
    }

    synchronized Peaks peaks() {
        return new Peaks(poolQueued, admissionQueued, tasksWaiting, carrierQueued, heapUsed, samples, failed);
    }

    private static double max(PrometheusText m, String name) {
        return m.all(name).stream().mapToDouble(PrometheusText.Sample::value).max().orElse(-1);
    }

    private static double heap(PrometheusText m) {
        return m.all("jvm_memory_used_bytes").stream().filter(s -> "heap".equals(s.labels().get("area")))
                .mapToDouble(PrometheusText.Sample::value).findFirst().orElse(-1);
    }

    @Override
    public void close() {
        periodic.stop(HttpGet.TIMEOUT.plus(HttpGet.CONNECT_TIMEOUT).plus(every));
    }
}
