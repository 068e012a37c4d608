package loomylin.advise;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import loomylin.bench.run.RunResult;
import loomylin.jetty.PoolKind;

/**
 * The one page {@code advise} prints: per pool and offered rate what was measured, each pool's knee (predicted
 * by Little's law and by the CPU, and measured), a verdict in plain words with the numbers behind it, the
 * caveats that apply to the profile, and what limited the measurement. Made from the rows alone, so that it
 * can be checked without running anything.
 */
public final class AdvisePage {
    private AdvisePage() {
    }

    /** One run: {@code result} null when it failed, with {@code failure} saying why. */
    public record Run(PoolKind pool, int offered, RunResult result, String failure) {
    }

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

    /** The highest offered rate the pool held, with every lower one held too; 0 when it did not hold the first. */
    public static int heldUpTo(PoolKind pool, List<Run> runs, Profile p) {
        int best = 0;
        for (int rate : p.rates()) {
            Optional<Run> run = find(runs, pool, rate);
            if (run.isEmpty() || !held(run.get(), p)) break;
            best = rate;
        }
        return best;
    }

    /** "above 600 req/s", "between 300 and 450 req/s", "below 300 req/s". */
    public static String measuredKnee(PoolKind pool, List<Run> runs, Profile p) {
        int up = heldUpTo(pool, runs, p);
        List<Integer> rates = p.rates();
        if (up == rates.getLast()) return "above " + up + " req/s (held every rate)";
        if (up == 0) return "below " + rates.getFirst() + " req/s (did not hold the first rate)";
        return "between " + up + " and " + rates.get(rates.indexOf(up) + 1) + " req/s";
    }

    /** CPU ms per request measured at the user's own rate (else the first run that has it). */
    static double cpuMs(PoolKind pool, List<Run> runs) {
        return runs.stream().filter(r -> r.pool().equals(pool) && r.result() != null && !Double.isNaN(r.result().cpuMsPerRequest()))
                .map(r -> r.result().cpuMsPerRequest()).findFirst().orElse(Double.NaN);
    }

    public static String render(Profile p, String query, double iterationsPerMs, int cores, List<PoolKind> pools, List<Run> runs,
                                String windows, String chart) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "# advise: %s ms CPU + %d ms wait per request at %d req/s, on qtp:%d today%n%n",
                Profile.fmt(p.cpuMs()), p.waitMs(), p.rate(), p.threads()));
        out.append(String.format(Locale.ROOT, "Simulated as `/%s` (%.0f SHA-256 iterations per ms of CPU on this machine%s), offered open loop with oha"
                + " (latency from each request's intended send time) at %s req/s, %s, a fresh server JVM per run; %d cores.%n%n",
                query, iterationsPerMs, p.usesBackend() ? "; the wait as " + p.calls() + " consecutive calls to Loomylin's backend, whose delays add up to it"
                        : "; the wait as a sleep", join(p.rates()), windows, cores));
        out.append("## Verdict\n\n").append(verdict(p, cores, pools, runs)).append("\n\n");
        out.append("## Per pool\n\n| pool | offered req/s | achieved req/s | p50 ms | p99 ms | CPU ms/req | OS threads | memory growth MB | errors | held |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (PoolKind pool : pools) {
            for (int rate : p.rates()) {
                Optional<Run> run = find(runs, pool, rate);
                if (run.isEmpty()) continue;
                RunResult r = run.get().result();
                if (r == null) {
                    out.append(String.format(Locale.ROOT, "| `%s` | %d | failed: %s | | | | | | | no |%n", pool, rate, run.get().failure().replace("|", "/")));
                    continue;
                }
                out.append(String.format(Locale.ROOT, "| `%s` | %d | %s | %s | %s | %s | %s | %s | %d | %s |%n", pool, rate, RunResult.fixed(r.rps(), 1),
                        RunResult.fixed(r.p50Ms(), 1), RunResult.fixed(r.p99Ms(), 1), RunResult.fixed(r.cpuMsPerRequest(), 3), RunResult.count(r.peakThreads()),
                        RunResult.fixed(r.rssGrowthKb() / 1024.0, 1), r.errors(), held(run.get(), p) ? "yes" : "no"));
            }
        }
        out.append(String.format(Locale.ROOT, "%nA rate is held when every request got a 2xx, at least %.0f %% of it was achieved and p99 stayed within %s ms"
                + " (%.0fx the request's own %s ms, or that plus %.0f ms).%n%n", ACHIEVED_SHARE * 100, RunResult.fixed(p99BoundMs(p), 0), P99_FACTOR,
                Profile.fmt(p.serviceS() * 1000), P99_SLACK_MS));
        out.append("## Knees\n\n| pool | Little's law | CPU limit | predicted | measured |\n|---|---|---|---|---|\n");
        for (PoolKind pool : pools) {
            double little = Profile.littleKnee(pool, p.serviceS());
            double cpu = Profile.cpuKnee(cores, cpuMs(pool, runs));
            out.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s |%n", pool,
                    Double.isInfinite(little) ? "no thread cap" : String.format(Locale.ROOT, "%.0f req/s (%d request threads / %s s)", little,
                            pool.size() - loomylin.jetty.JettySetup.LOOP_THREADS, RunResult.fixed(p.serviceS(), 3)),
                    Double.isNaN(cpu) ? "-" : String.format(Locale.ROOT, "%.0f req/s (%d cores / %s ms measured)", cpu, cores, RunResult.fixed(cpuMs(pool, runs), 3)),
                    rate(Math.min(little, Double.isNaN(cpu) ? Double.POSITIVE_INFINITY : cpu)), measuredKnee(pool, runs, p)));
        }
        out.append("\n## Caveats for this profile\n\n");
        caveats(p, cores, pools, runs).forEach(c -> out.append("- ").append(c).append('\n'));
        out.append("\n## What limited the measurement\n\n");
        limits(runs).forEach(c -> out.append("- ").append(c).append('\n'));
        if (chart != null) out.append("\nChart: ").append(chart).append(" (latency, achieved rate, CPU and threads against the offered rate).\n");
        return out.toString();
    }

    /** The verdict: which pool held the most of the rates, compared with the user's pool, in plain words. */
    static String verdict(Profile p, int cores, List<PoolKind> pools, List<Run> runs) {
        PoolKind mine = pools.getFirst();
        int mineUp = heldUpTo(mine, runs, p);
        PoolKind best = mine;
        for (PoolKind pool : pools) if (heldUpTo(pool, runs, p) > heldUpTo(best, runs, p)) best = pool;
        int bestUp = heldUpTo(best, runs, p);
        int top = p.rates().getLast();
        String mineAt = at(mine, runs, mineUp == 0 ? p.rates().getFirst() : mineUp);
        if (bestUp == 0) {
            double cpu = cpuMs(mine, runs);
            return String.format(Locale.ROOT, "No pool held even your own %d req/s. %s The CPU's knee at the measured %s ms per request is %s, and Little's law's for qtp:%d is %s:"
                    + " %s", p.rate(), mineAt, RunResult.fixed(cpu, 3), rate(Profile.cpuKnee(cores, cpu)), p.threads(), rate(Profile.littleKnee(mine, p.serviceS())),
                    "check the caveats and what limited the measurement below before changing anything.");
        }
        if (best.equals(mine)) {
            StringBuilder v = new StringBuilder(String.format(Locale.ROOT, "Keep qtp:%d: it held %s (%s).", p.threads(),
                    mineUp == top ? "every rate up to twice yours, " + top + " req/s" : "up to " + mineUp + " req/s", at(mine, runs, mineUp)));
            for (PoolKind other : pools) {
                if (other.equals(mine)) continue;
                int up = heldUpTo(other, runs, p);
                Run o = find(runs, other, mineUp).orElse(null);
                Run m = find(runs, mine, mineUp).orElse(null);
                if (up >= mineUp && o != null && m != null && o.result() != null && m.result() != null)
                    v.append(String.format(Locale.ROOT, " %s held it too, with %s OS threads against %s and %s MB of memory growth against %s:"
                                    + " virtual threads would buy threads and memory here, not throughput.", other, RunResult.count(o.result().peakThreads()),
                            RunResult.count(m.result().peakThreads()), RunResult.fixed(o.result().rssGrowthKb() / 1024.0, 1), RunResult.fixed(m.result().rssGrowthKb() / 1024.0, 1)));
                else v.append(String.format(Locale.ROOT, " %s held %s.", other, up == 0 ? "none of the rates" : "up to " + up + " req/s"));
            }
            return v.toString();
        }
        String why = mineUp == 0 ? "did not hold your own " + p.rate() + " req/s" : "held up to " + mineUp + " req/s";
        PoolKind winner = best;
        List<String> alike = pools.stream().filter(x -> !x.equals(winner) && !x.equals(mine) && heldUpTo(x, runs, p) == bestUp).map(PoolKind::toString).toList();
        double little = Profile.littleKnee(mine, p.serviceS());
        return String.format(Locale.ROOT, "Virtual threads pay off for this profile: %s%s held %s (%s), while your qtp:%d %s (%s). Little's law puts qtp:%d's knee at %s"
                        + " (%d request threads / %s s per request); %s.", best, alike.isEmpty() ? "" : " (and " + String.join(", ", alike) + ")", bestUp == top ? "every rate up to twice yours, " + top + " req/s" : "up to " + bestUp + " req/s",
                at(best, runs, bestUp), p.threads(), why, at(mine, runs, firstNotHeld(mine, runs, p)), p.threads(), rate(little),
                p.threads() - loomylin.jetty.JettySetup.LOOP_THREADS, RunResult.fixed(p.serviceS(), 3),
                little < top ? "a platform pool of " + (int) Math.ceil(top * p.serviceS() + loomylin.jetty.JettySetup.LOOP_THREADS)
                        + " threads would reach " + top + " req/s by the same law, at a thread per request in flight" : "the threads were not its limit");
    }

    private static int firstNotHeld(PoolKind pool, List<Run> runs, Profile p) {
        for (int rate : p.rates()) if (find(runs, pool, rate).map(r -> !held(r, p)).orElse(true)) return rate;
        return p.rates().getLast();
    }

    /** "at 450 req/s: achieved 449.8, p99 52.1 ms" for one run, or why there is none. */
    static String at(PoolKind pool, List<Run> runs, int rate) {
        Optional<Run> run = find(runs, pool, rate);
        if (run.isEmpty()) return "no run at " + rate + " req/s";
        RunResult r = run.get().result();
        if (r == null) return "at " + rate + " req/s the run failed: " + run.get().failure();
        return String.format(Locale.ROOT, "at %d req/s: achieved %s, p99 %s ms%s", rate, RunResult.fixed(r.rps(), 1), RunResult.fixed(r.p99Ms(), 1),
                r.errors() > 0 ? ", " + r.errors() + " errors" : "");
    }

    static List<String> caveats(Profile p, int cores, List<PoolKind> pools, List<Run> runs) {
        List<String> out = new ArrayList<>();
        double cpu = pools.stream().mapToDouble(pool -> cpuMs(pool, runs)).filter(x -> !Double.isNaN(x)).min().orElse(p.cpuMs());
        double coresAtTop = p.rates().getLast() * cpu / 1000.0;
        if (coresAtTop >= 0.7 * cores)
            out.add(String.format(Locale.ROOT, "CPU-bound at these rates: at %d req/s the measured %s ms of CPU per request needs %.1f of %d cores. Virtual threads"
                            + " add no capacity past the CPU's knee (%s), and an unbounded virtual-thread server admits every request and then answers none in time:"
                            + " cap admission (Loomylin's --max-in-flight).", p.rates().getLast(), RunResult.fixed(cpu, 3), coresAtTop, cores,
                    rate(Profile.cpuKnee(cores, cpu))));
        if (p.usesBackend())
            out.add(String.format(Locale.ROOT, "A downstream limit: the %d ms wait is %d call(s) to Loomylin's backend, which answers every call after its delay"
                            + " without a limit of its own. A real database or service has one: at %d req/s Little's law holds %.1f calls in flight"
                            + " (%d req/s x %s s), %d calls per second; a connection pool smaller than that queues them whatever the server's threads,"
                            + " and becomes the knee.", p.waitMs(), p.calls(), p.rates().getLast(), p.rates().getLast() * p.waitMs() / 1000.0, p.rates().getLast(),
                    RunResult.fixed(p.waitMs() / 1000.0, 3), p.rates().getLast() * p.calls()));
        else if (p.waitMs() > 0)
            out.add(String.format(Locale.ROOT, "A downstream limit: the %d ms wait is simulated by a sleep, which has no limit of its own. A database or HTTP client"
                            + " has one: at %d req/s Little's law holds %.1f calls in flight (%d req/s x %s s); a connection pool smaller than that queues them"
                            + " whatever the server's threads, and becomes the knee.", p.waitMs(), p.rates().getLast(), p.rates().getLast() * p.waitMs() / 1000.0,
                    p.rates().getLast(), RunResult.fixed(p.waitMs() / 1000.0, 3)));
        if (p.bodyBytes() >= LARGE_BODY_BYTES)
            out.add(p.bodyBytes() + "-byte bodies: a write blocks while a slow client reads, and on a VirtualThreadPool capped by maxThreads (jetty-vtp:N)"
                    + " blocked writes hold its permits until it stops serving; use loom or qtp-vt:N, not a capped VirtualThreadPool"
                    + " (docs/results.md, the fibers-server seed's experiments).");
        if (p.bodyBytes() > 0)
            out.add("File reads: the body is read from a file (the servers' data file, from the page cache here). A read that misses the cache blocks"
                    + " its carrier thread on JDK 25, and no extra carriers make up for it: for slow disks read on a bounded platform-thread executor"
                    + " (docs/results.md, file I/O on virtual threads).");
        if (out.isEmpty()) out.add("None of the known ones: not CPU-bound at these rates, no wait, no body.");
        return out;
    }

    /** Runs whose client, or the machine it shares with the server, may have been the limit. */
    static List<String> limits(List<Run> runs) {
        List<String> out = new ArrayList<>();
        for (Run run : runs) {
            RunResult r = run.result();
            if (r == null) continue;
            String what = run.pool() + " at " + run.offered() + " req/s";
            if (r.clientLimited())
                out.add(String.format(Locale.ROOT, "%s: oha used %.0f %% of all cores and the server %.0f %%; the client, or the machine they share,"
                        + " may have been the limit, not the pool.", what, r.clientCpuPct(), r.serverCpuPct()));
            if (r.stealPct() >= STEAL_PCT)
                out.add(String.format(Locale.ROOT, "%s: the hypervisor took %.0f %% of the CPU time (steal); the machine ran slower than it is.", what, r.stealPct()));
        }
        if (out.isEmpty()) out.add("Nothing flagged: neither the client nor the machine was near its limit in any run.");
        return out;
    }

    static Optional<Run> find(List<Run> runs, PoolKind pool, int rate) {
        return runs.stream().filter(r -> r.pool().equals(pool) && r.offered() == rate).findFirst();
    }

    private static String rate(double perS) {
        return Double.isInfinite(perS) ? "no limit" : String.format(Locale.ROOT, "%.0f req/s", perS);
    }

    private static String join(List<Integer> rates) {
        List<String> s = rates.stream().map(String::valueOf).toList();
        return s.size() <= 1 ? String.join("", s) : String.join(", ", s.subList(0, s.size() - 1)) + " and " + s.getLast();
    }
}
