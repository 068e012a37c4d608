package loomylin.lab.experiment.advise;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.lab.engine.output.Spread;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Warmth;
import loomylin.server.jetty.PoolKind;

/**
 * The one page {@code advise} prints: per pool and offered rate what was measured, each pool's knee (predicted
 * by Little's law and by the CPU, and measured), a verdict in plain words with the numbers behind it, the
 * caveats that apply to the profile, and what limited the measurement. Made from the rows alone, so that it
 * can be checked without running anything.
 */
public final class AdvisePage {
    private AdvisePage() {
    }

    /**
     * One run: round {@code round} of invocation {@code invocation} (from 1) at a point (a pool and an offered rate);
     * {@code result} null when it failed, with {@code failure} saying why; {@code idleCpuMsPerS} what the same server
     * spent idle just before its window; {@code warmth} whether its warm-up left the JIT quiet, and the window's CPU by thread.
     */
    public record Run(PoolKind pool, int offered, int invocation, int round, RunResult result, String failure, double idleCpuMsPerS, Warmth warmth) {
        public Run(PoolKind pool, int offered, RunResult result, String failure) {
            this(pool, offered, 1, 1, result, failure, Double.NaN, Warmth.NONE);
        }

        /** Whether the run may decide: it measured something and nothing marks it. */
        public boolean decides() {
            return result != null && marks().isEmpty();
        }

        /** What keeps the run out of a verdict: the bench's marks, and cold when its warm-up ended with the JIT busy. */
        public List<String> marks() {
            List<String> marks = new ArrayList<>(result == null ? List.of() : result.marks());
            if (warmth.cold()) marks.addFirst("cold");
            return marks;
        }

        /** The JIT's CPU over the window per answer, ms; NaN where not recorded. */
        public double jitMs() {
            return result == null ? Double.NaN : warmth.jitMsPer(result.responses());
        }

        /** The garbage collector's, likewise. */
        public double gcMs() {
            return result == null ? Double.NaN : warmth.gcMsPer(result.responses());
        }
    }

    /** A point decides only on unmarked runs from at least this many invocations. */
    public static final int INVOCATIONS = 2;

    /** A rate is held when every request got a 2xx, at least this share of the offered rate was achieved, ... */
    public static final double ACHIEVED_SHARE = 0.95;
    /** ... and p99 stayed within this many times the request's own time (or that time plus {@link #P99_SLACK_MS}, if more). */
    public static final double P99_FACTOR = 4;
    public static final double P99_SLACK_MS = 100;
    /** Bodies from this size up may block their writer on a slow reader: the capped VirtualThreadPool caveat. */
    public static final int LARGE_BODY_BYTES = 64 * 1024;
    /** The machine ran slower than it is when the hypervisor stole this share of its CPU time. */
    public static final double STEAL_PCT = 5;

    /** The p99 a held rate stays within, in ms. */
    public static double p99BoundMs(Profile p) {
        double ms = p.serviceS() * 1000;
        return Math.max(P99_FACTOR * ms, ms + P99_SLACK_MS);
    }

    public static boolean held(Run run, Profile p) {
        RunResult r = run.result();
        return r != null && r.errors() == 0 && r.rps() >= ACHIEVED_SHARE * run.offered() && r.p99Ms() <= p99BoundMs(p);
    }

    /** A point is held when it has runs and every one of them held. */
    public static boolean held(PoolKind pool, int rate, List<Run> runs, Profile p) {
        List<Run> at = all(runs, pool, rate);
        return !at.isEmpty() && at.stream().allMatch(r -> held(r, p));
    }

    /** The rates measured, lowest first. */
    static List<Integer> rates(List<Run> runs) {
        return runs.stream().map(Run::offered).distinct().sorted().toList();
    }

    /** The highest offered rate the pool held, with every lower one held too; 0 when it did not hold the first. */
    public static int heldUpTo(PoolKind pool, List<Run> runs, Profile p) {
        int best = 0;
        for (int rate : rates(runs)) {
            if (!held(pool, rate, runs, p)) break;
            best = rate;
        }
        return best;
    }

    /** "above 600 req/s", "between 300 and 450 req/s", "below 300 req/s". */
    public static String measuredKnee(PoolKind pool, List<Run> runs, Profile p) {
        int up = heldUpTo(pool, runs, p);
        List<Integer> rates = rates(runs);
        if (rates.isEmpty()) return "not measured";
        if (up == rates.getLast()) return "above " + up + " req/s (held every rate)";
        if (up == 0) return "below " + rates.getFirst() + " req/s (did not hold the first rate)";
        return "between " + up + " and " + rates.get(rates.indexOf(up) + 1) + " req/s";
    }

    /** CPU ms per request at the lowest rate that has it: the median over its runs. */
    static double cpuMs(PoolKind pool, List<Run> runs) {
        for (int rate : rates(runs)) {
            double cpu = median(all(runs, pool, rate), r -> r.result().cpuMsPerRequest());
            if (!Double.isNaN(cpu)) return cpu;
        }
        return Double.NaN;
    }

    /** The median of a figure over the runs that decide (measured something, nothing marks them); NaN when none does. */
    static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> figure) {
        return Spread.of(runs.stream().filter(Run::decides).map(figure::applyAsDouble).toList()).median();
    }

    /**
     * The noise line at {@code rate}: for each pool, its median over each invocation's deciding runs, and how far
     * apart the invocations' medians lie, as a share of the lower; the largest over the pools. NaN where no pool has
     * deciding runs from two invocations. A ratio between pools within it decides nothing.
     */
    static double noise(List<PoolKind> pools, List<Run> runs, int rate, java.util.function.ToDoubleFunction<Run> figure) {
        double most = Double.NaN;
        for (PoolKind pool : pools) {
            List<Run> point = all(runs, pool, rate);
            List<Double> medians = point.stream().map(Run::invocation).distinct()
                    .map(i -> median(point.stream().filter(r -> r.invocation() == i).toList(), figure)).filter(m -> !Double.isNaN(m)).toList();
            if (medians.size() < 2) continue;
            double lo = medians.stream().mapToDouble(d -> d).min().orElseThrow(), hi = medians.stream().mapToDouble(d -> d).max().orElseThrow();
            if (lo > 0 && (Double.isNaN(most) || (hi - lo) / lo > most)) most = (hi - lo) / lo;
        }
        return most;
    }

    public static String render(Profile p, String query, double iterationsPerMs, int cores, List<PoolKind> pools, List<Run> runs,
                                String windows, String chart) {
        StringBuilder out = new StringBuilder();
        List<Integer> rates = rates(runs);
        out.append(String.format(Locale.ROOT, "# advise: %s ms CPU + %d ms wait per request at %d req/s, on qtp:%d today%n%n",
                Profile.fmt(p.cpuMs()), p.waitMs(), p.rate(), p.threads()));
        out.append(String.format(Locale.ROOT, "Simulated as `/%s` (%.0f SHA-256 iterations per ms of CPU on this machine%s), offered open loop with oha"
                + " (latency from each request's intended send time) at %s req/s%s, %s, %d run(s) per pool and rate from %d invocation(s), a fresh server JVM per run;"
                + " %d cores.%n%n",
                query, iterationsPerMs, p.usesBackend() ? "; the wait as " + p.calls() + " consecutive calls to Loomylin's backend, whose delays add up to it"
                        : "; the wait as a sleep", join(rates), p.overloaded(cores) ? String.format(Locale.ROOT, " (%d req/s is the rate the cores allow, %.0f %%"
                        + " of their estimated %.0f req/s for this request; yours is past it)", p.allowedRate(cores), 100 * Profile.ALLOWED_SHARE, p.capacity(cores)) : "",
                windows, perPoint(runs), invocations(runs), cores));
        out.append("## Verdict\n\n").append(verdict(p, cores, pools, runs)).append("\n\n");
        out.append("## Per pool\n\n| pool | offered req/s | invocation | run | achieved req/s | p50 ms | p99 ms | CPU ms/req | of it JIT | of it GC | OS threads | memory growth MB | errors"
                + " | held | marked |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (PoolKind pool : pools) {
            for (int rate : rates) {
                for (Run run : all(runs, pool, rate)) {
                    RunResult r = run.result();
                    if (r == null) {
                        out.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %d | failed: %s | | | | | | | | | no | failed |%n", pool, rate, run.invocation(), run.round(),
                                run.failure().replace("|", "/")));
                        continue;
                    }
                    out.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |%n", pool, rate, run.invocation(), run.round(),
                            RunResult.fixed(r.rps(), 1), RunResult.fixed(r.p50Ms(), 1), RunResult.fixed(r.p99Ms(), 1), RunResult.fixed(r.cpuMsPerRequest(), 3),
                            RunResult.fixed(run.jitMs(), 3), RunResult.fixed(run.gcMs(), 3), RunResult.count(r.peakThreads()),
                            RunResult.fixed(r.rssGrowthKb() / 1024.0, 1), r.errors(), held(run, p) ? "yes" : "no",
                            run.marks().isEmpty() ? "-" : String.join(", ", run.marks())));
                }
            }
        }
        out.append(String.format(Locale.ROOT, "%nA run held its rate when every request got a 2xx, at least %.0f %% of the rate was achieved and p99 stayed"
                + " within %s ms (%.0fx the request's own %s ms, or that plus %.0f ms); a pool holds a rate when every run of it did. *Of it JIT*"
                + " and *of it GC*: the part of the CPU per request that the server JVM's compiler threads, and its garbage collector's threads with the"
                + " VM thread, spent in the window (per-thread CPU from /proc). *Marked*: what keeps a run out of the verdicts (cold: its warm-up"
                + " ended with the JIT's threads above %.0f %% of the server's CPU; too short; unsettled: its window's rate fell below its warm-up's;"
                + " client-limited); a pool's figures at a rate read *undecided* when a run of them failed or is marked, or when their"
                + " runs come from fewer than %d invocations.%s%n%n",
                ACHIEVED_SHARE * 100, RunResult.fixed(p99BoundMs(p), 0), P99_FACTOR, Profile.fmt(p.serviceS() * 1000), P99_SLACK_MS,
                100 * loomylin.lab.engine.run.Warmup.QUIET_SHARE, INVOCATIONS,
                invocations(runs) < INVOCATIONS ? " Every point here is one invocation's, so this page is a sketch of your profile, to confirm with"
                        + " --invocations " + INVOCATIONS + "." : ""));
        out.append("## Knees\n\n| pool | Little's law | CPU limit | predicted | measured |\n|---|---|---|---|---|\n");
        for (PoolKind pool : pools) {
            double little = Profile.littleKnee(pool, p.serviceS());
            double cpu = Profile.cpuKnee(cores, cpuMs(pool, runs));
            double predicted = Math.min(little, Double.isNaN(cpu) ? Double.POSITIVE_INFINITY : cpu);
            String measured = measuredKnee(pool, runs, p);
            if (!rates.isEmpty() && heldUpTo(pool, runs, p) == rates.getLast())
                measured += Double.isInfinite(predicted) ? "" : predicted > rates.getLast()
                        ? String.format(Locale.ROOT, "; the predicted knee was not reached: it lies past the highest rate offered (advise goes up to %.0fx your rate)",
                        Profile.KNEE_REACH) : "; held past the predicted knee";
            out.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s |%n", pool,
                    Double.isInfinite(little) ? "no thread cap" : String.format(Locale.ROOT, "%.0f req/s (%d request threads / %s s)", little,
                            pool.size() - loomylin.server.jetty.JettySetup.LOOP_THREADS, RunResult.fixed(p.serviceS(), 3)),
                    Double.isNaN(cpu) ? "-" : String.format(Locale.ROOT, "%.0f req/s (%d cores / %s ms measured)", cpu, cores, RunResult.fixed(cpuMs(pool, runs), 3)),
                    rate(predicted), measured));
        }
        out.append("\n## Caveats for this profile\n\n");
        caveats(p, cores, pools, runs).forEach(c -> out.append("- ").append(c).append('\n'));
        out.append("\n## What limited the measurement\n\n");
        limits(runs).forEach(c -> out.append("- ").append(c).append('\n'));
        if (chart != null) out.append("\nChart: ").append(chart).append(" (latency, achieved rate, CPU and threads against the offered rate).\n");
        return out.toString();
    }

    /** The verdict: which pool held the most of the rates, compared with the user's pool, then each pool's p99 and CPU per request. */
    static String verdict(Profile p, int cores, List<PoolKind> pools, List<Run> runs) {
        return (p.overloaded(cores) ? pastTheCores(p, cores, pools, runs) : held(p, cores, pools, runs)) + " " + figures(p, cores, pools, runs);
    }

    /** A rate past the cores: no pool can serve it; what the cores allow, what virtual threads cost there, and where to cap. */
    static String pastTheCores(Profile p, int cores, List<PoolKind> pools, List<Run> runs) {
        double cpu = cpuMs(pools.getFirst(), runs);
        double need = p.rate() * (Double.isNaN(cpu) ? p.cpuMs() : cpu) / 1000;
        return String.format(Locale.ROOT, "Your %d req/s is past this machine's cores: at %s ms of CPU per request it needs %.1f cores, and there are %d."
                        + " No pool serves it here, and virtual threads add no capacity past the cores; advise measured the rate the cores allow, %d req/s,"
                        + " beside yours%s. %s", p.rate(), RunResult.fixed(Double.isNaN(cpu) ? p.cpuMs() : cpu, 3), need, cores, p.allowedRate(cores),
                rates(runs).getLast() < p.rate() ? " (offered at " + rates(runs).getLast() + " req/s, " + Profile.fmt(Profile.OVERLOAD_REACH)
                        + "x the cores' estimated capacity: farther out only the queue grows)" : "", cap(p, cores, runs, pools));
    }

    /** Where to cap admission for a CPU-bound load: Little's law at the cores' knee. */
    static String cap(Profile p, int cores, List<Run> runs, List<PoolKind> pools) {
        double cpu = cpuMs(pools.getFirst(), runs);
        double ms = Double.isNaN(cpu) || cpu <= 0 ? Math.max(p.cpuMs(), 0.001) : cpu;
        long inFlight = (long) Math.ceil(cores * (ms + p.waitMs()) / ms);
        return String.format(Locale.ROOT, "To answer what the cores can in time and refuse the rest at once, cap admission at about %d requests in flight"
                + " (Loomylin's --max-in-flight %d: Little's law at the cores' knee, %d cores x (%s ms CPU + %d ms wait) / %s ms; arithmetic, not measured"
                + " here: bench --preset admission measures what a cap delivers).", inFlight, inFlight, cores, RunResult.fixed(ms, 3), p.waitMs(), RunResult.fixed(ms, 3));
    }

    /** Within the cores: which pool held the most rates. */
    static String held(Profile p, int cores, List<PoolKind> pools, List<Run> runs) {
        PoolKind mine = pools.getFirst();
        int mineUp = heldUpTo(mine, runs, p);
        PoolKind best = mine;
        for (PoolKind pool : pools) if (heldUpTo(pool, runs, p) > heldUpTo(best, runs, p)) best = pool;
        int bestUp = heldUpTo(best, runs, p);
        List<Integer> rates = rates(runs);
        int top = rates.isEmpty() ? p.rate() : rates.getLast();
        String mineAt = at(mine, runs, mineUp == 0 ? p.rate() : mineUp);
        if (bestUp == 0) {
            double cpu = cpuMs(mine, runs);
            return String.format(Locale.ROOT, "No pool held even your own %d req/s. %s The CPU's knee at the measured %s ms per request is %s, and Little's law's for qtp:%d is %s:"
                    + " %s", p.rate(), mineAt, RunResult.fixed(cpu, 3), rate(Profile.cpuKnee(cores, cpu)), p.threads(), rate(Profile.littleKnee(mine, p.serviceS())),
                    "check the caveats and what limited the measurement below before changing anything.");
        }
        if (best.equals(mine)) {
            StringBuilder v = new StringBuilder(String.format(Locale.ROOT, "Keep qtp:%d: it held %s (%s).", p.threads(),
                    mineUp == top ? "every rate measured, up to " + top + " req/s" : "up to " + mineUp + " req/s", at(mine, runs, mineUp)));
            for (PoolKind other : pools) {
                if (other.equals(mine)) continue;
                int up = heldUpTo(other, runs, p);
                List<Run> o = all(runs, other, mineUp);
                List<Run> m = all(runs, mine, mineUp);
                if (up >= mineUp && !Double.isNaN(median(o, r -> r.result().peakThreads())) && !Double.isNaN(median(m, r -> r.result().peakThreads())))
                    v.append(String.format(Locale.ROOT, " %s held it too, with %s OS threads against %s and %s MB of memory growth against %s:"
                                    + " virtual threads would buy threads and memory here, not throughput.", other, RunResult.count((int) median(o, r -> r.result().peakThreads())),
                            RunResult.count((int) median(m, r -> r.result().peakThreads())), RunResult.fixed(median(o, r -> r.result().rssGrowthKb()) / 1024.0, 1),
                            RunResult.fixed(median(m, r -> r.result().rssGrowthKb()) / 1024.0, 1)));
                else v.append(String.format(Locale.ROOT, " %s held %s.", other, up == 0 ? "none of the rates" : "up to " + up + " req/s"));
            }
            return v.toString();
        }
        String why = mineUp == 0 ? "did not hold your own " + p.rate() + " req/s" : "held up to " + mineUp + " req/s";
        PoolKind winner = best;
        List<String> alike = pools.stream().filter(x -> !x.equals(winner) && !x.equals(mine) && heldUpTo(x, runs, p) == bestUp).map(PoolKind::toString).toList();
        double little = Profile.littleKnee(mine, p.serviceS());
        return String.format(Locale.ROOT, "Virtual threads pay off for this profile: %s%s held %s (%s), while your qtp:%d %s (%s). Little's law puts qtp:%d's knee at %s"
                        + " (%d request threads / %s s per request); %s.", best, alike.isEmpty() ? "" : " (and " + String.join(", ", alike) + ")",
                bestUp == top ? "every rate measured, up to " + top + " req/s" : "up to " + bestUp + " req/s",
                at(best, runs, bestUp), p.threads(), why, at(mine, runs, firstNotHeld(mine, runs, p)), p.threads(), rate(little),
                p.threads() - loomylin.server.jetty.JettySetup.LOOP_THREADS, RunResult.fixed(p.serviceS(), 3),
                little < top ? "a platform pool of " + (int) Math.ceil(top * p.serviceS() + loomylin.server.jetty.JettySetup.LOOP_THREADS)
                        + " threads would reach " + top + " req/s by the same law, at a thread per request in flight" : "the threads were not its limit");
    }

    /**
     * Each pool's p99 and CPU per request at the user's rate and at the highest rate the user's pool held (past the
     * cores: at the rate they allow and at the user's), the medians over the runs, with each pool's ratio to the
     * user's pool.
     */
    static String figures(Profile p, int cores, List<PoolKind> pools, List<Run> runs) {
        int held = heldUpTo(pools.getFirst(), runs, p);
        List<Integer> at = p.overloaded(cores) ? rates(runs) : rates(runs).stream().filter(r -> r == p.rate() || r == held).toList();
        List<String> sentences = new ArrayList<>();
        PoolKind mine = pools.getFirst();
        for (int rate : at) {
            List<String> parts = new ArrayList<>();
            double mineP99 = median(all(runs, mine, rate), r -> r.result().p99Ms());
            double mineCpu = median(all(runs, mine, rate), r -> r.result().cpuMsPerRequest());
            boolean sameCount = pools.stream().mapToInt(pool -> all(runs, pool, rate).size()).distinct().count() == 1;
            for (PoolKind pool : pools) {
                List<Run> point = all(runs, pool, rate);
                double p99 = median(point, r -> r.result().p99Ms());
                double cpu = median(point, r -> r.result().cpuMsPerRequest());
                if (Double.isNaN(p99)) {
                    parts.add(pool + (point.stream().anyMatch(r -> r.result() != null) ? " not decided" + undecided(point).substring(", undecided".length())
                            : " measured nothing"));
                    continue;
                }
                String vs = pool.equals(mine) || Double.isNaN(mineP99) ? "" : String.format(Locale.ROOT, " (%.2fx and %.2fx yours)", p99 / mineP99, cpu / mineCpu);
                double jit = median(point, Run::jitMs);
                parts.add(String.format(Locale.ROOT, "%s p99 %s ms and %s ms of CPU per request%s%s%s%s", pool, RunResult.fixed(p99, 1),
                        RunResult.fixed(cpu, 3), Double.isNaN(jit) ? "" : " (" + RunResult.fixed(jit, 3) + " of it the JIT's)", vs,
                        sameCount ? "" : " (" + point.size() + " run(s))", undecided(point)));
            }
            String label = rate == p.rate() ? "At your " + rate + " req/s" : "At " + rate + " req/s";
            sentences.add(label + (sameCount ? " (median of " + all(runs, mine, rate).size() + " run(s) each): " : " (medians): ") + String.join("; ", parts) + ".");
            double cpuNoise = noise(pools, runs, rate, r -> r.result().cpuMsPerRequest()), p99Noise = noise(pools, runs, rate, r -> r.result().p99Ms());
            if (!Double.isNaN(cpuNoise))
                sentences.add(String.format(Locale.ROOT, "The noise line there: a pool's median moved up to %.1f %% in CPU per request and %.1f %% in p99 between"
                        + " invocations, so a ratio within that of 1x decides nothing.", 100 * cpuNoise, 100 * p99Noise));
        }
        return String.join(" ", sentences);
    }

    /**
     * ", undecided: N of M run(s) marked" when a run of the point failed or is marked, ", undecided: runs from one
     * invocation" when its runs come from fewer than {@link #INVOCATIONS}; "" when the point decides.
     */
    static String undecided(List<Run> point) {
        long marked = point.stream().filter(r -> !r.decides()).count();
        if (marked > 0) return String.format(Locale.ROOT, ", undecided: %d of %d run(s) marked", marked, point.size());
        return invocations(point) < INVOCATIONS ? ", undecided: runs from one invocation" : "";
    }

    /** How many invocations the runs come from. */
    static int invocations(List<Run> runs) {
        return (int) runs.stream().mapToInt(Run::invocation).distinct().count();
    }

    /** The most runs any point has. */
    private static int perPoint(List<Run> runs) {
        return runs.stream().collect(java.util.stream.Collectors.groupingBy(r -> r.pool() + "@" + r.offered(), java.util.stream.Collectors.counting()))
                .values().stream().mapToInt(Long::intValue).max().orElse(0);
    }

    private static int firstNotHeld(PoolKind pool, List<Run> runs, Profile p) {
        for (int rate : rates(runs)) if (!held(pool, rate, runs, p)) return rate;
        return rates(runs).getLast();
    }

    /** "at 450 req/s: achieved 449.8, p99 52.1 ms" for a point, the medians over its runs, or why there is none. */
    static String at(PoolKind pool, List<Run> runs, int rate) {
        List<Run> point = all(runs, pool, rate);
        if (point.isEmpty()) return "no run at " + rate + " req/s";
        if (point.stream().allMatch(r -> r.result() == null)) return "at " + rate + " req/s the run failed: " + point.getFirst().failure();
        long errors = point.stream().filter(r -> r.result() != null).mapToLong(r -> r.result().errors()).sum();
        return String.format(Locale.ROOT, "at %d req/s: achieved %s, p99 %s ms%s", rate, RunResult.fixed(median(point, r -> r.result().rps()), 1),
                RunResult.fixed(median(point, r -> r.result().p99Ms()), 1), errors > 0 ? ", " + errors + " errors" : "");
    }

    static List<String> caveats(Profile p, int cores, List<PoolKind> pools, List<Run> runs) {
        List<String> out = new ArrayList<>();
        double cpu = pools.stream().mapToDouble(pool -> cpuMs(pool, runs)).filter(x -> !Double.isNaN(x)).min().orElse(p.cpuMs());
        int top = runs.isEmpty() ? p.rates(cores).getLast() : rates(runs).getLast();
        double coresAtTop = top * cpu / 1000.0;
        if (coresAtTop >= 0.7 * cores)
            out.add(String.format(Locale.ROOT, "CPU-bound at these rates: at %d req/s the measured %s ms of CPU per request needs %.1f of %d cores. Virtual threads"
                            + " add no capacity past the CPU's knee (%s), and an unbounded virtual-thread server admits every request and then answers none in time."
                            + " %s", top, RunResult.fixed(cpu, 3), coresAtTop, cores, rate(Profile.cpuKnee(cores, cpu)),
                    p.overloaded(cores) ? "The verdict says where to cap admission." : cap(p, cores, runs, pools)));
        if (p.usesBackend())
            out.add(String.format(Locale.ROOT, "A downstream limit: the %d ms wait is %d call(s) to Loomylin's backend, which answers every call after its delay"
                            + " without a limit of its own. A real database or service has one: at %d req/s Little's law holds %.1f calls in flight"
                            + " (%d req/s x %s s), %d calls per second; a connection pool smaller than that queues them whatever the server's threads,"
                            + " and becomes the knee.", p.waitMs(), p.calls(), top, top * p.waitMs() / 1000.0, top,
                    RunResult.fixed(p.waitMs() / 1000.0, 3), top * p.calls()));
        else if (p.waitMs() > 0)
            out.add(String.format(Locale.ROOT, "A downstream limit: the %d ms wait is simulated by a sleep, which has no limit of its own. A database or HTTP client"
                            + " has one: at %d req/s Little's law holds %.1f calls in flight (%d req/s x %s s); a connection pool smaller than that queues them"
                            + " whatever the server's threads, and becomes the knee.", p.waitMs(), top, top * p.waitMs() / 1000.0,
                    top, RunResult.fixed(p.waitMs() / 1000.0, 3)));
        if (p.bodyBytes() >= LARGE_BODY_BYTES)
            out.add(p.bodyBytes() + "-byte bodies: a write blocks while a slow client reads, and on a VirtualThreadPool capped by maxThreads (jetty-vtp:N)"
                    + " blocked writes hold its permits until it stops serving; use loom or qtp-vt:N, not a capped VirtualThreadPool"
                    + " (docs/results/seeds.md, the fibers-server seed's experiments).");
        if (p.bodyBytes() > 0)
            out.add("File reads: the body is read from a file (the servers' data file, from the page cache here). A read that misses the cache blocks"
                    + " its carrier thread on JDK 25, and no extra carriers make up for it: for slow disks read on a bounded platform-thread executor"
                    + " (docs/results/waits.md, file I/O on virtual threads).");
        if (out.isEmpty()) out.add("None of the known ones: not CPU-bound at these rates, no wait, no body.");
        return out;
    }

    /** Runs whose client, or the machine it shares with the server, may have been the limit. */
    static List<String> limits(List<Run> runs) {
        // One line per point and kind of limit, its runs counted and their shares as ranges: four runs of a point
        // past the cores say the same thing once.
        record Key(PoolKind pool, int offered, String kind) {
        }
        Map<Key, List<RunResult>> flagged = new LinkedHashMap<>();
        for (Run run : runs) {
            RunResult r = run.result();
            if (r == null) continue;
            if (r.clientLimited()) flagged.computeIfAbsent(new Key(run.pool(), run.offered(), r.serverCpuPct() > r.clientCpuPct() ? "full" : "client"),
                    k -> new ArrayList<>()).add(r);
            if (r.stealPct() >= STEAL_PCT) flagged.computeIfAbsent(new Key(run.pool(), run.offered(), "steal"), k -> new ArrayList<>()).add(r);
        }
        List<String> out = new ArrayList<>();
        flagged.forEach((k, rs) -> {
            String what = k.pool() + " at " + k.offered() + " req/s (" + (rs.size() == 1 ? "1 run" : rs.size() + " runs") + ")";
            String server = pct(rs, RunResult::serverCpuPct), client = pct(rs, RunResult::clientCpuPct);
            out.add(switch (k.kind()) {
                case "full" -> what + ": the server used " + server + " % of all cores and oha " + client + " %: the machine was full, mostly with the"
                        + " server's work, so this rate is at or past what the cores serve; " + (rs.size() == 1 ? "the run decides" : "these runs decide") + " nothing.";
                case "client" -> what + ": oha used " + client + " % of all cores and the server " + server + " %; the client, or the machine they share,"
                        + " may have been the limit, not the pool.";
                default -> what + ": the hypervisor took " + pct(rs, RunResult::stealPct) + " % of the CPU time (steal); the machine ran slower than it is.";
            });
        });
        if (out.isEmpty()) out.add("Nothing flagged: neither the client nor the machine was near its limit in any run.");
        return out;
    }

    /** A share over some runs: "98", or "1-2" when they differ once rounded. */
    private static String pct(List<RunResult> rs, java.util.function.ToDoubleFunction<RunResult> share) {
        String lo = String.format(Locale.ROOT, "%.0f", rs.stream().mapToDouble(share).min().orElse(Double.NaN));
        String hi = String.format(Locale.ROOT, "%.0f", rs.stream().mapToDouble(share).max().orElse(Double.NaN));
        return lo.equals(hi) ? lo : lo + "-" + hi;
    }

    /** Every run of a point, in the order they ran. */
    static List<Run> all(List<Run> runs, PoolKind pool, int rate) {
        return runs.stream().filter(r -> r.pool().equals(pool) && r.offered() == rate).toList();
    }

    private static String rate(double perS) {
        return Double.isInfinite(perS) ? "no limit" : String.format(Locale.ROOT, "%.0f req/s", perS);
    }

    private static String join(List<Integer> rates) {
        List<String> s = rates.stream().map(String::valueOf).toList();
        return s.size() <= 1 ? String.join("", s) : String.join(", ", s.subList(0, s.size() - 1)) + " and " + s.getLast();
    }
}
