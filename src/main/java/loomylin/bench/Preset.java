package loomylin.bench;

import java.util.List;
import java.util.Locale;
import loomylin.cli.UsageError;
import loomylin.web.Params;

/**
 * A named benchmark: blocks of runs plus how long each run warms up and how many requests it measures.
 * A block is every pool x endpoint x concurrency it lists; a preset is several blocks because not every
 * pool is worth running everywhere (2 platform threads serving 2000 clients that each sleep 100 ms would
 * take minutes to say what one run says).
 *
 * @param warmup              hey's -z duration of the warm-up burst before each measured run
 * @param warmupConcurrency   the warm-up uses min(this, the run's concurrency) clients: it is there for the
 *                            JIT, not to queue thousands of requests on a small pool
 * @param heap                the server JVM's fixed heap (-Xms = -Xmx)
 */
record Preset(String name, String summary, List<Block> blocks, RequestRule requests, String warmup, int warmupConcurrency, String heap) {

    /** Every listed pool, endpoint and concurrency with each other. */
    record Block(List<String> pools, List<String> endpoints, List<Integer> concurrency) {
        Block with(List<String> pools, List<String> endpoints, List<Integer> concurrency) {
            return new Block(pools != null ? pools : this.pools, endpoints != null ? endpoints : this.endpoints,
                    concurrency != null ? concurrency : this.concurrency);
        }
    }

    static final List<String> NAMES = List.of("smoke", "quick", "full", "scale", "hops");

    static Preset named(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "smoke" -> SMOKE;
            case "quick" -> QUICK;
            case "full" -> FULL;
            case "scale" -> SCALE;
            case "hops" -> HOPS;
            default -> throw new UsageError("--preset must be one of " + String.join(", ", NAMES) + ", connections; got '" + Params.printable(name) + "'");
        };
    }

    /** Seconds, for the test suite: does every part work, not how fast anything is. */
    static final Preset SMOKE = new Preset("smoke", "2 pools x 2 endpoints x 2 concurrency levels, 100 requests each; under a minute",
            List.of(new Block(List.of("loom", "qtp:4"), List.of("wait-blocking?ms=10", "computational?iterations=1000"), List.of(5, 10))),
            new RequestRule(10, 100, 100), "500ms", 10, "256m");

    /** A few minutes: every kind of pool and endpoint at a low and a high concurrency. */
    static final Preset QUICK = new Preset("quick", "26 runs: every pool kind and endpoint at a low and a high concurrency; 3-4 minutes on 2 cores",
            List.of(
                    new Block(List.of("qtp:4", "loom", "jetty-vtp", "qtp-vt:8"), List.of("computational"), List.of(50, 500)),
                    new Block(List.of("qtp:32", "loom", "jetty-vtp"), List.of("wait-blocking?ms=100", "wait-async?ms=100"), List.of(50, 2000)),
                    new Block(List.of("loom"), List.of("hops-blocking", "hops-async"), List.of(50, 1000)),
                    new Block(List.of("loom", "qtp:2500"), List.of("wait-blocking?ms=1000"), List.of(2000))),
            new RequestRule(3, 500, 4000), "1s", 100, "512m");

    /**
     * What the README's results come from: about 60 runs, sized for well under 25 minutes on 2 cores. Each
     * block answers a question (and the targets P1-P6 read their rows from it): CPU work on every pool;
     * waiting with and without a thread; the three-hop chain blocking and async; memory with a platform
     * thread per client. qtp:4 runs only the CPU block and the seed's c=50 waits, qtp:32 only the low concurrency of the hops block:
     * elsewhere they would spend minutes queueing to show what one run shows. At least 2000 requests per
     * run, so that at c=50 each client makes 40 requests and the start and end of a run weigh little.
     */
    static final Preset FULL = new Preset("full", "the README's results: 7 blocks, 61 runs; about 15-20 minutes on 2 cores",
            List.of(
                    new Block(List.of("qtp:4", "qtp:32", "loom", "jetty-vtp", "qtp-vt:8"), List.of("computational"), List.of(50, 500, 2000)),
                    new Block(List.of("qtp:32", "loom", "jetty-vtp", "qtp-vt:8"), List.of("wait-blocking?ms=100", "wait-async?ms=100"), List.of(50, 500, 2000)),
                    new Block(List.of("qtp:2500"), List.of("wait-blocking?ms=100", "wait-async?ms=100"), List.of(2000)),
                    // The seed's headline: 4 platform threads, 50 clients sleeping 100 ms (about 100 s at 20 req/s).
                    new Block(List.of("qtp:4"), List.of("wait-blocking?ms=100", "wait-async?ms=100"), List.of(50)),
                    new Block(List.of("qtp:32", "loom", "jetty-vtp", "qtp-vt:8"), List.of("hops-blocking", "hops-async"), List.of(50)),
                    new Block(List.of("loom", "jetty-vtp", "qtp-vt:8"), List.of("hops-blocking", "hops-async"), List.of(1000)),
                    new Block(List.of("loom", "qtp:2500", "jetty-vtp", "qtp-vt:8"), List.of("wait-blocking?ms=1000"), List.of(2000))),
            new RequestRule(5, 2000, 10000), "5s", 100, "512m");

    /**
     * The servers at connection scale (the three-hop seed saw platform threads degrade beyond 5,000): every client
     * waits 1 s, at 5000, 10000 and 18000 (about what a 20,000 open-file limit leaves hey and the server) on loom,
     * qtp-vt:8 and a QueuedThreadPool with more threads than clients, and the same with /wait-async on qtp:32.
     * Memory per in-flight request: peak RSS growth over the concurrency, in the report.
     */
    static final Preset SCALE = new Preset("scale", "servers at connection scale: 12 runs at c=5000-18000, 1 s waits; about 10 minutes on 2 cores",
            List.of(
                    new Block(List.of("loom", "qtp-vt:8"), List.of("wait-blocking?ms=1000"), List.of(5_000, 10_000, 18_000)),
                    new Block(List.of("qtp:5500"), List.of("wait-blocking?ms=1000"), List.of(5_000)),
                    new Block(List.of("qtp:10500"), List.of("wait-blocking?ms=1000"), List.of(10_000)),
                    new Block(List.of("qtp:18500"), List.of("wait-blocking?ms=1000"), List.of(18_000)),
                    new Block(List.of("qtp:32"), List.of("wait-async?ms=1000"), List.of(5_000, 10_000, 18_000))),
            new RequestRule(5, 20_000, 100_000), "2s", 100, "1g");

    /**
     * P4 for one blocking client: /hops-blocking against /hops-async on loom at c=50 and c=1000. Run it once per
     * {@code --hop-client} (jdk, url, jetty) and compare their CPU per request and throughput.
     */
    static final Preset HOPS = new Preset("hops", "P4 for the --hop-client: loom /hops-blocking vs /hops-async at c=50 and 1000; 4 runs, about 2 minutes",
            List.of(new Block(List.of("loom"), List.of("hops-blocking", "hops-async"), List.of(50, 1000))),
            new RequestRule(5, 2000, 10000), "5s", 100, "512m");
}
