package loomylin.lab.bench;

import java.util.List;
import java.util.Locale;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.RequestRule;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.Windows;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * A named benchmark: blocks of runs, how long each run warms up and measures, and how often each
 * configuration repeats. A block is every pool x endpoint x concurrency (x offered rate, for an open loop)
 * it lists; a preset is several blocks because not every pool is worth running everywhere (2 platform
 * threads serving 2000 clients that each sleep 100 ms would take minutes to say what one run says).
 *
 * <p>Every closed-loop run is a window by the clock (wrk {@code -d}) and every open-loop run one of a fixed
 * length at a constant rate (oha), each after a warm-up with the run's own client at the run's own concurrency
 * (and rate). The presets that publish results measure at least {@link Windows#Windows.DECIDING_CLOSED_S} s closed-loop and
 * {@link Windows#Windows.DECIDING_OPEN_S} s open-loop; {@code smoke} and {@code quick} are shorter, and their reports say first
 * that they decide nothing. hey, which sends a count, stays for the fibers-server experiments and {@code --client hey}.
 *
 * @param requests          bounds of a closed hey run's request count (and the rounding hey needs)
 * @param warmup            how long the warm-up before each measured run lasts
 * @param warmupConcurrency clients of the warm-up that runs the shared backend's JIT in before the first run
 * @param heap              the server JVM's fixed heap (-Xms = -Xmx)
 * @param measureS          a closed-loop run's measured window in seconds (a hey run sends what the warm-up
 *                          achieved in this many seconds, within {@code requests})
 * @param openMeasureS      an open-loop run's window: oha sends rate x this many requests
 * @param repeat            runs of every configuration, interleaved across pools
 * @param invocations       how often the whole plan runs, each time with a fresh backend JVM (every run has its own
 *                          server JVM anyway); a target's verdict compares the invocations' medians
 */
public record Preset(String name, String summary, List<Block> blocks, RequestRule requests, String warmup, int warmupConcurrency,
              String heap, int measureS, int openMeasureS, int repeat, int invocations) {


    /**
     * Every listed pool, endpoint and concurrency with each other; with {@code rates}, each of them offered
     * open-loop. {@code client} is the closed-loop client that leaves the server as the limit at these
     * concurrencies (--client overrides it).
     */
    public record Block(List<String> pools, List<String> endpoints, List<Integer> concurrency, List<Integer> rates, Client client) {
        Block(List<String> pools, List<String> endpoints, List<Integer> concurrency) {
            this(pools, endpoints, concurrency, List.of(), Client.WRK);
        }

        Block with(List<String> pools, List<String> endpoints, List<Integer> concurrency) {
            return new Block(pools != null ? pools : this.pools, endpoints != null ? endpoints : this.endpoints,
                    concurrency != null ? concurrency : this.concurrency, rates, client);
        }
    }

    public static final List<String> NAMES = List.of("smoke", "quick", "full", "latency", "scale", "hops");

    public static Preset named(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "smoke" -> SMOKE;
            case "quick" -> QUICK;
            case "full" -> FULL;
            case "latency" -> LATENCY;
            case "scale" -> SCALE;
            case "hops" -> HOPS;
            default -> throw new UsageError("--preset must be one of " + String.join(", ", NAMES) + "; got '" + Params.printable(name) + "'");
        };
    }

    public static final String CPU = Endpoint.CPU;

    /** Seconds, for the test suite: does every part work, not how fast anything is. */
    public static final Preset SMOKE = new Preset("smoke", "2 pools x 2 endpoints x 2 concurrency levels, 100 requests each with hey; decides nothing",
            List.of(new Block(List.of("loom", "qtp:4"), List.of("wait-blocking?ms=10", "computational?iterations=1000"), List.of(5, 10), List.of(), Client.HEY)),
            new RequestRule(10, 100, 100), "500ms", 10, "256m", 1, 1, 1, 1);

    /** A few minutes: the main questions at a low and a high concurrency, three times each. */
    public static final Preset QUICK = new Preset("quick", "14 configurations x 3 repeats of 3 s windows: CPU work, waits with and without a thread, hops; a tour that decides nothing",
            List.of(
                    new Block(List.of("qtp:4", "loom"), List.of(CPU), List.of(50)),
                    new Block(List.of("qtp:4"), List.of("wait-async?ms=100"), List.of(50)),
                    new Block(List.of("qtp:32", "loom"), List.of("wait-blocking?ms=100"), List.of(50)),
                    new Block(List.of("loom"), List.of("wait-blocking?ms=100", "wait-async?ms=100"), List.of(2000), List.of(), Client.WRK),
                    new Block(List.of("loom"), List.of("hops-blocking", "hops-async"), List.of(50, 1000))),
            new RequestRule(2, 500, 20_000), "3s", 100, "512m", 3, 3, 3, 1);

    /**
     * A bench whose runs the flags list (--pools, --endpoints, --concurrency or --rate without --preset): quick's
     * blocks as the base the flags replace, measured like the presets that publish.
     */
    public static final Preset CUSTOM = new Preset("custom", "the runs the flags list, with windows that can decide", QUICK.blocks(),
            QUICK.requests(), "8s", 100, "512m", Windows.DECIDING_CLOSED_S, Windows.DECIDING_OPEN_S, 3, 1);

    /**
     * What the front page's results and the targets P1-P10 come from: 19 closed-loop and 5 open-loop configurations,
     * 2 repeats each, and the whole plan twice (2 invocations, each with a fresh backend JVM), so that every verdict
     * rests on two; sized for an hour on 2 cores (a run costs its JVM start and stop, about 4 s, plus the warm-up
     * and the measured window). Each block answers a question the docs ask:
     * <ul>
     *   <li>CPU work: does the pool's shape change what contention-free work (P2) or work on a shared seed costs?
     *   <li>Waits: how many more waiting requests does a virtual thread each serve than 30 request threads (c=50,
     *       200), and does blocking code keep up with code where no thread waits (P1 against qtp:4's async route,
     *       P3 and P10 at c=2000)? Do Jetty's own virtual-thread shapes serve 2,000 waits like LoomThreadPool?
     *   <li>Three backend calls per request, blocking against async (P4).
     *   <li>Memory and OS threads with a platform thread per client (P5, P6).
     *   <li>Open loop: the p99 below and above qtp:32's capacity, and its knee (P7-P9).
     * </ul>
     * At c=2000 wrk drives the load: hey, at that concurrency, measured itself more than the server (issue 9).
     */
    public static final Preset FULL = new Preset("full", "the front page's results and P1-P10: 24 configurations x 2 repeats x 2 invocations",
            List.of(
                    new Block(List.of("qtp:4", "qtp:32", "loom"), List.of(CPU), List.of(50)),
                    new Block(List.of("qtp:4", "loom"), List.of("computational"), List.of(50)),
                    // c=200, not more: qtp:32 answers 300 req/s, so beyond that its clients queue for so long that a 20 s window
                    // leaves each fewer than 20 answers, too short to decide anything.
                    new Block(List.of("qtp:32", "loom"), List.of("wait-blocking?ms=100"), List.of(50, 200)),
                    // P1's reference: 4 platform threads, 50 clients waiting 100 ms where no thread waits.
                    new Block(List.of("qtp:4"), List.of("wait-async?ms=100"), List.of(50)),
                    new Block(List.of("loom"), List.of("wait-blocking?ms=100", "wait-async?ms=100"), List.of(2000), List.of(), Client.WRK),
                    new Block(List.of("jetty-vtp", "qtp-vt:8", "qtp-vtp:8:2500"), List.of("wait-blocking?ms=100"), List.of(2000), List.of(), Client.WRK),
                    new Block(List.of("loom"), List.of("hops-blocking", "hops-async"), List.of(1000)),
                    new Block(List.of("loom", "qtp:2500"), List.of("wait-blocking?ms=1000"), List.of(2000), List.of(), Client.WRK),
                    new Block(List.of("qtp:32", "loom"), List.of("wait-blocking?ms=100"), List.of(1000), List.of(250, 450), Client.OHA),
                    new Block(List.of("qtp-vt:8"), List.of("wait-blocking?ms=100"), List.of(1000), List.of(250), Client.OHA)),
            new RequestRule(2, 1000, 100_000), "8s", 100, "512m", Windows.DECIDING_CLOSED_S, Windows.DECIDING_OPEN_S, 2, 2);

    /** Offered rates from well below to well above qtp:32's capacity (30 request threads / 0.1 s = 300 req/s). */
    public static final List<Integer> LATENCY_RATES = List.of(100, 200, 250, 300, 350, 450, 600);

    /**
     * The hockey stick: /wait-blocking?ms=100 offered open-loop at constant rates on four pools, and
     * /wait-async?ms=100 on qtp:32 as the reference where no thread waits. 1000 connections, so that even
     * qtp:32's growing queue at 600 req/s never runs the client out of them within the window.
     */
    public static final Preset LATENCY = new Preset("latency", "open loop: 5 pool/endpoint pairs x 7 offered rates (100-600 req/s)",
            List.of(
                    new Block(List.of("qtp:32", "loom", "qtp-vt:8", "jetty-vtp"), List.of("wait-blocking?ms=100"), List.of(1000), LATENCY_RATES, Client.OHA),
                    new Block(List.of("qtp:32"), List.of("wait-async?ms=100"), List.of(1000), LATENCY_RATES, Client.OHA)),
            new RequestRule(1, 1, 1_000_000), "8s", 100, "512m", Windows.DECIDING_CLOSED_S, Windows.DECIDING_OPEN_S, 1, 1);

    /**
     * The servers at connection scale (the three-hop seed saw platform threads degrade beyond 5,000): every client
     * waits 1 s, at 5000, 10000 and 18000 (about what a 20,000 open-file limit leaves the load generator and the
     * server) on loom, qtp-vt:8 and a QueuedThreadPool with more threads than clients, and /wait-async on qtp:32.
     * Memory per in-flight request: (peak_rss_kb - idle_rss_kb) / c from results.csv. The warm-up runs at the
     * run's own concurrency: every pool here has a thread (or a virtual thread, or no thread) for each client, so
     * nothing queues, and the QueuedThreadPools have started their thousands of threads before the measured window
     * opens. The question is the steady state of a thread per connection; what the first contact costs shows in
     * warmup_rps.
     */
    public static final Preset SCALE = new Preset("scale", "servers at connection scale: 12 configurations x 2 repeats x 2 invocations at c=5000-18000 with 1 s waits (wrk)",
            List.of(
                    new Block(List.of("loom", "qtp-vt:8"), List.of("wait-blocking?ms=1000"), List.of(5_000, 10_000, 18_000), List.of(), Client.WRK),
                    new Block(List.of("qtp:5500"), List.of("wait-blocking?ms=1000"), List.of(5_000), List.of(), Client.WRK),
                    new Block(List.of("qtp:10500"), List.of("wait-blocking?ms=1000"), List.of(10_000), List.of(), Client.WRK),
                    new Block(List.of("qtp:18500"), List.of("wait-blocking?ms=1000"), List.of(18_000), List.of(), Client.WRK),
                    new Block(List.of("qtp:32"), List.of("wait-async?ms=1000"), List.of(5_000, 10_000, 18_000), List.of(), Client.WRK)),
            new RequestRule(2, 1000, 200_000), "8s", 100, "1g", Windows.DECIDING_CLOSED_S, Windows.DECIDING_OPEN_S, 2, 2);

    /**
     * P4 for one blocking client: loom /hops-blocking against /hops-async at c=50 and c=1000, twice (each
     * invocation with a fresh backend, whose warm-up was one suspect when the ratio moved between benches). Run it
     * once per {@code --hop-client} (jdk, url, jetty) and compare CPU per request and throughput.
     */
    public static final Preset HOPS = new Preset("hops", "P4 for the --hop-client: loom /hops-blocking vs /hops-async at c=50 and 1000, 2 repeats x 2 invocations",
            List.of(new Block(List.of("loom"), List.of("hops-blocking", "hops-async"), List.of(50, 1000))),
            new RequestRule(2, 1000, 100_000), "8s", 100, "512m", Windows.DECIDING_CLOSED_S, Windows.DECIDING_OPEN_S, 2, 2);

}
