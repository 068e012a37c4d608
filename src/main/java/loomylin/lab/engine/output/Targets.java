package loomylin.lab.engine.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import loomylin.server.web.Limits;

/**
 * The project's performance targets, each computed from the rows of one bench (ratios of runs made
 * minutes apart on the same machine, so that the machine's speed cancels out). A ratio is taken per repeat
 * (repeat i of one configuration over repeat i of the other, which ran next to it), and the verdict reads
 * the whole range: PASS or MISS only when every repeat lies on one side of the goal, else NOISE. A target
 * that reads a run with errors or no answers is ERRORS, never PASS; one that reads a run with too few answers
 * ({@link RunResult#tooShort()}) is TOO SHORT, one that reads a cold, unsettled or client-limited run NOT DECIDED, and one that reads a hey run (a count, not a window) NOT TIMED. A target whose runs the bench did not
 * make is "n/a", not a miss.
 */
public final class Targets {
    private Targets() {
    }

    /**
     * One target's verdict.
     *
     * @param values  the figure per repeat (one value for a target over all runs); empty when runs are missing
     * @param lo      the goal's lower end (-Infinity: none)
     * @param hi      its upper end (+Infinity: none)
     * @param detail  how it was computed, or which runs it needs
     * @param runs    the configurations it read
     * @param invalid why no verdict can stand (a run with errors), or null
     */
    public record Target(String id, String what, List<Double> values, String goal, double lo, double hi, String detail, String runs, String invalid,
                         List<Double> invocationMedians) {
        public Target {
            if (invalid != null && invalid.startsWith(MARKED)) values = List.of(); // a marked run's figure is quoted nowhere, not even beside NOT DECIDED
        }

        public Target(String id, String what, List<Double> values, String goal, double lo, double hi, String detail, String runs, String invalid) {
            this(id, what, values, goal, lo, hi, detail, runs, invalid, List.of());
        }

        Target withInvocationMedians(List<Double> medians) {
            return new Target(id, what, values, goal, lo, hi, detail, runs, invalid, List.copyOf(medians));
        }

        /** The invocations' medians lie within {@link #INVOCATIONS_AGREE} of each other (or there is one). */
        boolean invocationsAgree() {
            if (invocationMedians.size() < 2) return true;
            double lo = invocationMedians.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double hi = invocationMedians.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            return lo > 0 ? hi / lo - 1 <= INVOCATIONS_AGREE : lo == hi;
        }

        String result() {
            if (invalid != null && invalid.startsWith(TOO_SHORT)) return "TOO SHORT";
            if (invalid != null && invalid.startsWith(COUNTED)) return "NOT TIMED";
            if (invalid != null && invalid.startsWith(MARKED)) return "NOT DECIDED";
            if (invalid != null) return "ERRORS";
            if (values.isEmpty()) return "n/a";
            if (!invocationsAgree()) return "NOISE";
            long passing = values.stream().filter(v -> v >= lo && v <= hi).count();
            return passing == values.size() ? "PASS" : passing == 0 ? "MISS" : "NOISE";
        }

        Spread spread() {
            return Spread.of(values);
        }

        String valueText() {
            if (values.isEmpty()) return "n/a";
            Spread s = spread();
            int decimals = values.stream().allMatch(v -> v == Math.rint(v)) ? 0 : 3;
            return s.text(decimals);
        }
    }

    public static final PoolKind LOOM = PoolKind.loom();
    public static final PoolKind QTP4 = PoolKind.qtp(4);
    public static final PoolKind QTP32 = PoolKind.qtp(32);

    /** How far apart two invocations' medians may lie before a target reads NOISE whatever its repeats say. */
    public static final double INVOCATIONS_AGREE = 0.10;

    /**
     * Every target over all rows; with rows of several invocations, each target also carries each invocation's
     * median, and reads NOISE when they lie more than {@link #INVOCATIONS_AGREE} apart.
     */
    public static List<Target> evaluate(List<RunResult> rows, int cores) {
        List<Target> pooled = evaluateOnce(rows, cores);
        List<Integer> invocations = rows.stream().map(RunResult::invocation).distinct().sorted().toList();
        if (invocations.size() < 2) return pooled;
        List<List<Target>> each = invocations.stream().map(n -> evaluateOnce(rows.stream().filter(r -> r.invocation() == n).toList(), cores)).toList();
        List<Target> out = new ArrayList<>();
        for (int i = 0; i < pooled.size(); i++) {
            List<Double> medians = new ArrayList<>();
            for (List<Target> one : each) if (!one.get(i).values().isEmpty()) medians.add(one.get(i).spread().median());
            out.add(pooled.get(i).withInvocationMedians(medians));
        }
        return out;
    }

    private static List<Target> evaluateOnce(List<RunResult> rows, int cores) {
        List<Config> configs = Config.of(rows);
        List<Target> out = new ArrayList<>();
        out.add(p1(configs));
        out.addAll(p2(configs));
        out.add(p3(configs));
        out.addAll(p4(configs));
        out.add(p5(configs, cores));
        out.add(p6(configs));
        out.addAll(p7(configs));
        out.addAll(p8(configs));
        out.add(p9(configs));
        out.add(p10(configs));
        return out;
    }

    /** loom blocking waits against qtp:4's async ones: same clients, same wait, no thread waits in the reference. */
    public static Target p1(List<Config> configs) {
        String what = "c=50: loom /wait-blocking?ms=100 req/s over qtp:4 /wait-async?ms=100 req/s";
        return ratio("P1", what, ">= 0.99", 0.99, Double.POSITIVE_INFINITY, RunResult::rps,
                closed(configs, LOOM, e -> e.route().equals("wait-blocking") && ms(e) == 100, 50),
                closed(configs, QTP4, e -> e.route().equals("wait-async") && ms(e) == 100, 50), "req/s");
    }

    /** Contention-free CPU work at c=50: loom against qtp:4, throughput and CPU per request. */
    public static List<Target> p2(List<Config> configs) {
        Predicate<Endpoint> cpu = e -> e.route().equals("mixed") ? e.intParam("sleep").orElse(-1) == 0 && e.intParam("file").orElse(-1) == 0
                : e.toString().equals(Endpoint.CPU);
        Optional<Config> loom = closed(configs, LOOM, cpu, 50);
        Optional<Config> qtp = loom.flatMap(l -> closed(configs, QTP4, e -> e.equals(l.spec().endpoint()), 50));
        String on = loom.map(l -> "/" + l.spec().endpoint()).orElse("/" + Endpoint.CPU);
        return List.of(
                ratio("P2", "c=50, " + on + ": loom req/s over qtp:4 req/s", ">= 0.97", 0.97, Double.POSITIVE_INFINITY, RunResult::rps, loom, qtp, "req/s"),
                ratio("P2", "c=50, " + on + ": loom CPU ms per request over qtp:4's", "<= 1.05", Double.NEGATIVE_INFINITY, 1.05,
                        RunResult::cpuMsPerRequest, loom, qtp, "ms"));
    }

    /** At c=2000 on loom, blocking waits keep up with asynchronous ones of the same length. */
    public static Target p3(List<Config> configs) {
        String what = "loom, c=2000: /wait-blocking req/s over /wait-async req/s (same ms)";
        for (Config blocking : configs) {
            RunSpec s = blocking.spec();
            if (s.open() || !s.pool().equals(LOOM) || !s.endpoint().route().equals("wait-blocking") || s.concurrency() != 2000) continue;
            Optional<Config> async = closed(configs, LOOM, e -> e.route().equals("wait-async") && ms(e) == ms(s.endpoint()), 2000);
            if (async.isPresent()) return ratio("P3", what, ">= 0.95", 0.95, Double.POSITIVE_INFINITY, RunResult::rps, Optional.of(blocking), async, "req/s");
        }
        return missing("P3", what, ">= 0.95", "needs loom wait-blocking and wait-async with the same ms at c=2000");
    }

    /**
     * At c=1000 on loom, three blocking backend calls through the run's {@code --hop-client} keep up with the same
     * chain as futures: at least 0.95 of its throughput for at most 1.05 of its CPU per request.
     */
    public static List<Target> p4(List<Config> configs) {
        String rps = "loom, c=1000: /hops-blocking req/s over /hops-async req/s";
        String cpu = "loom, c=1000: /hops-blocking CPU ms per request over /hops-async's";
        for (Config blocking : configs) {
            RunSpec s = blocking.spec();
            if (s.open() || !s.pool().equals(LOOM) || !s.endpoint().route().equals("hops-blocking") || s.concurrency() != 1000) continue;
            Optional<Config> async = closed(configs, LOOM, e -> e.route().equals("hops-async") && e.query().equals(s.endpoint().query()), 1000);
            if (async.isEmpty()) continue;
            return List.of(
                    ratio("P4", rps, ">= 0.95", 0.95, Double.POSITIVE_INFINITY, RunResult::rps, Optional.of(blocking), async, "req/s"),
                    ratio("P4", cpu, "<= 1.05", Double.NEGATIVE_INFINITY, 1.05, RunResult::cpuMsPerRequest, Optional.of(blocking), async, "ms"));
        }
        String needs = "needs loom hops-blocking and hops-async (same query) at c=1000";
        return List.of(missing("P4", rps, ">= 0.95", needs), missing("P4", cpu, "<= 1.05", needs));
    }

    /** However many clients, loom's platform threads stay a small constant. */
    public static Target p5(List<Config> configs, int cores) {
        int bound = 2 * cores + 24;
        String what = "loom, any run: peak platform (OS) threads, bound 2 x " + cores + " cores + 24";
        Config most = null;
        int peak = -1;
        for (Config c : configs) {
            if (!c.spec().pool().equals(LOOM)) continue;
            int p = c.repeats().stream().mapToInt(RunResult::peakThreads).max().orElse(-1); // -1: unknown (--target without --metrics)
            if (p > peak) {
                peak = p;
                most = c;
            }
        }
        if (most == null) return missing("P5", what, "<= " + bound, "needs any loom run");
        return new Target("P5", what, List.of((double) peak), "<= " + bound, Double.NEGATIVE_INFINITY, bound,
                "the most of any loom run", most.describe(), null);
    }

    /** 2000 clients waiting 1 s: the memory loom adds is at most half of what 2500 platform threads add. */
    public static Target p6(List<Config> configs) {
        String what = "/wait-blocking?ms=1000, c=2000: loom peak-minus-idle RSS over qtp:2500's";
        Predicate<Endpoint> endpoint = e -> e.route().equals("wait-blocking") && ms(e) == 1000;
        return ratio("P6", what, "<= 0.5", Double.NEGATIVE_INFINITY, 0.5, r -> r.idleRssKb() < 0 ? Double.NaN : r.rssGrowthKb() / 1024.0,
                closed(configs, LOOM, endpoint, 2000), closed(configs, PoolKind.qtp(2500), endpoint, 2000), "MB");
    }

    /** Open loop, 250 req/s offered (below qtp:32's capacity of 300): nobody queues. */
    public static List<Target> p7(List<Config> configs) {
        List<Target> out = new ArrayList<>();
        for (PoolKind pool : List.of(QTP32, LOOM, PoolKind.parse("qtp-vt:8")))
            out.add(openP99("P7", configs, pool, 250, "<= 150", Double.NEGATIVE_INFINITY, 150));
        return out;
    }

    /** Open loop, 450 req/s offered: qtp:32's queue grows without end, loom's threads do not run out. */
    public static List<Target> p8(List<Config> configs) {
        return List.of(openP99("P8", configs, QTP32, 450, ">= 1000", 1000, Double.POSITIVE_INFINITY),
                openP99("P8", configs, LOOM, 450, "<= 150", Double.NEGATIVE_INFINITY, 150));
    }

    /**
     * qtp:32's measured knee (the most it answered per second at any offered rate, i.e. its capacity) against
     * Little's law: 30 request threads / 0.1 s = 300 req/s.
     */
    public static Target p9(List<Config> configs) {
        double predicted = predictedKnee(QTP32, 100);
        String what = "open loop, /wait-blocking?ms=100: qtp:32's measured knee over Little's law's " + RunResult.fixed(predicted, 0) + " req/s";
        List<Config> runs = configs.stream().filter(c -> c.spec().open() && c.spec().pool().equals(QTP32)
                && c.spec().endpoint().route().equals("wait-blocking") && ms(c.spec().endpoint()) == 100).toList();
        if (runs.size() < 2) return missing("P9", what, "0.85-1.15", "needs qtp:32 wait-blocking?ms=100 at two or more offered rates");
        int repeats = runs.stream().mapToInt(c -> c.repeats().size()).min().orElse(0);
        List<Double> values = new ArrayList<>();
        String invalid = null;
        for (int i = 0; i < repeats; i++) {
            RunResult best = null;
            for (Config c : runs) if (best == null || c.repeats().get(i).rps() > best.rps()) best = c.repeats().get(i);
            if (best.tooShort()) invalid = TOO_SHORT + "the run at the knee had " + best.responses() + " answers: " + best.spec().describe();
            else if (!best.clean()) invalid = "the run at the knee has errors: " + best.spec().describe() + " (" + best.errors() + ")";
            values.add(best.rps() / predicted);
        }
        return new Target("P9", what, values, "0.85-1.15", 0.85, 1.15, "max achieved req/s " + Spread.of(values.stream().map(v -> v * predicted).toList()).text(1),
                runs.size() + " offered rates", invalid);
    }

    /** At c=2000 the client must not be the limit: loom reaches 0.8 of what 2000 clients waiting 100 ms allow. */
    public static Target p10(List<Config> configs) {
        String what = "loom, /wait-blocking?ms=100, c=2000: req/s over the bound 2000 / 0.1 s";
        Optional<Config> loom = closed(configs, LOOM, e -> e.route().equals("wait-blocking") && ms(e) == 100, 2000);
        if (loom.isEmpty()) return missing("P10", what, ">= 0.8", "needs loom wait-blocking?ms=100 at c=2000");
        double bound = 2000 * 1000.0 / 100;
        List<Double> values = loom.get().repeats().stream().map(r -> r.rps() / bound).toList();
        return new Target("P10", what, values, ">= 0.8", 0.8, Double.POSITIVE_INFINITY,
                loom.get().spread(RunResult::rps).text(1) + " of " + RunResult.fixed(bound, 0) + " req/s", loom.get().describe(), invalid(loom.get()));
    }

    /** Little's law: request threads / wait (a growing qtp:MIN-MAX's at MAX). Null-free: a pool without a thread limit has none (Infinity). */
    public static double predictedKnee(PoolKind pool, int ms) {
        if (pool.type() != PoolKind.Type.QTP) return Double.POSITIVE_INFINITY;
        return (pool.size() - JettySetup.LOOP_THREADS) * 1000.0 / ms;
    }

    private static Target openP99(String id, List<Config> configs, PoolKind pool, int rate, String goal, double lo, double hi) {
        String what = "open loop " + rate + " req/s, /wait-blocking?ms=100: " + pool + " p99 ms";
        Optional<Config> c = configs.stream().filter(x -> x.spec().open() && x.spec().rate() == rate && x.spec().pool().equals(pool)
                && x.spec().endpoint().route().equals("wait-blocking") && ms(x.spec().endpoint()) == 100).findFirst();
        if (c.isEmpty()) return missing(id, what, goal, "needs " + pool + " wait-blocking?ms=100 offered at " + rate + " req/s");
        List<Double> values = c.get().repeats().stream().map(RunResult::p99Ms).toList();
        return new Target(id, what, values, goal, lo, hi, "achieved " + c.get().spread(RunResult::rps).text(1) + " req/s",
                c.get().describe(), invalid(c.get()));
    }

    private static Target ratio(String id, String what, String goal, double lo, double hi, ToDoubleFunction<RunResult> metric,
                                Optional<Config> a, Optional<Config> b, String unit) {
        if (a.isEmpty() || b.isEmpty()) return missing(id, what, goal, "needs both runs of: " + what);
        int n = Math.min(a.get().repeats().size(), b.get().repeats().size());
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double v = metric.applyAsDouble(a.get().repeats().get(i)) / metric.applyAsDouble(b.get().repeats().get(i));
            if (!Double.isNaN(v)) values.add(v); // NaN: a server figure a --target bench without --metrics lacks
        }
        String invalid = invalid(a.get());
        if (invalid == null) invalid = invalid(b.get());
        if (values.isEmpty() && invalid == null) return missing(id, what, goal, "no server figures (--target without --metrics)");
        return new Target(id, what, values, goal, lo, hi, a.get().spread(metric).text(2) + " / " + b.get().spread(metric).text(2) + " " + unit,
                a.get().describe() + "; " + b.get().describe(), invalid);
    }

    /** How an invalid reason starts when a run had too few answers to decide ({@link RunResult#tooShort()}). */
    static final String TOO_SHORT = "too short: ";
    /** How it starts when a run was marked cold, unsettled or client-limited: a verdict never rests on a marked run. */
    static final String MARKED = "marked: ";
    /** How it starts when a run was a hey count, not a window by the clock: such a run never decides a target. */
    static final String COUNTED = "counted, not timed: ";

    private static String invalid(Config c) {
        if (c.repeats().stream().anyMatch(RunResult::tooShort))
            return TOO_SHORT + c.describe() + " had a run with fewer than " + RunResult.MIN_ANSWERS + " answers or "
                    + RunResult.MIN_ANSWERS_PER_CLIENT + " per client";
        if (c.spec().client() == loomylin.lab.engine.load.Client.HEY)
            return COUNTED + c.describe() + " ran hey with a request count; only windows by the clock (wrk, oha) decide targets";
        if (!c.clean()) return c.describe() + " had " + c.errors() + " requests without a 2xx answer";
        if (!c.marksText().equals("-")) return MARKED + c.describe() + " had runs the bench marked (" + c.marksText() + ")";
        return null;
    }

    public static void writeCsv(Path file, List<Target> targets) throws IOException {
        StringBuilder out = new StringBuilder("id,what,median,min,max,goal,result,detail,runs,invocation_medians\n");
        for (Target t : targets) {
            Spread s = t.spread();
            out.append(String.join(",", t.id(), quote(t.what()), RunResult.fixed(s.median(), 4), RunResult.fixed(s.min(), 4),
                    RunResult.fixed(s.max(), 4), quote(t.goal()), t.result(),
                    quote(t.invalid() != null ? t.invalid() : t.detail()), quote(t.runs()),
                    String.join(";", t.invocationMedians().stream().map(m -> RunResult.fixed(m, 4)).toList()))).append('\n');
        }
        Files.writeString(file, out, StandardCharsets.UTF_8);
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /** The wait's length: the query's ms, else the server's default. */
    private static int ms(Endpoint e) {
        return e.intParam("ms").orElse(Limits.MS_DEFAULT);
    }

    private static Optional<Config> closed(List<Config> configs, PoolKind pool, Predicate<Endpoint> endpoint, int concurrency) {
        return configs.stream().filter(c -> !c.spec().open() && c.spec().pool().equals(pool) && c.spec().concurrency() == concurrency
                && endpoint.test(c.spec().endpoint())).findFirst();
    }

    private static Target missing(String id, String what, String goal, String needs) {
        return new Target(id, what, List.of(), goal, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, needs, "", null);
    }
}
