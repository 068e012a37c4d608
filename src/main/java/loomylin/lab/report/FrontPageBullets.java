package loomylin.lab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code bullets front|all}: "what virtual threads buy, in numbers", each bullet computed from a committed result
 * file and linked to it, comparing {@code loom} with what a user would otherwise run (Jetty's default
 * {@code new QueuedThreadPool()}, {@code qtp:8-200}, and a pool sized for the load) beside the seed's comparison,
 * labelled as the seed's.
 *
 * <p>{@code all} (docs/results/figures.md): every bullet, each figure a median with its range; a bullet (or part of one)
 * whose runs are not in the files, or are marked too short, unsettled or client-limited, quotes no number and says
 * why, and a figure from one run per cell says it is a sketch.
 *
 * <p>{@code front} (README.md): only what is decided, medians only, short: every figure rests on at least
 * {@link #MIN_RUNS} unmarked runs from {@link #MIN_INVOCATIONS} invocations; a part that is not decided reads
 * "not decided here", a bullet with nothing decided is left off, and no bookkeeping (marks, counts of runs) is printed.
 */
final class FrontPageBullets implements Renderer {
    static final String FULL = "gfx/results/full";
    static final String SCALE = "gfx/results/scale";
    static final String HOPS_URL = "gfx/results/hops-url";
    static final String HOPS_JDK = "gfx/results/hops-jdk";
    static final String BOUND = "gfx/results/bound";
    static final String ADMISSION = "gfx/results/admission";
    /**
     * Blocking waits at 50 and 200 clients on {@code loom}, Jetty's default {@code new QueuedThreadPool()} ({@code qtp:8-200})
     * and a pool of 200 threads started up front ({@code qtp:200}), under the warm-up that records each run's start,
     * end and load, 2 repeats in each of 2 invocations.
     */
    static final String FAIR = "gfx/results/fair-default";
    /** Jetty's default pool, {@code new QueuedThreadPool()}: 8 threads growing to 200. */
    static final String JETTY_DEFAULT = "qtp:8-200";
    static final String MEMORY = "gfx/results/memory-per-request";
    static final String CROSSOVER = "gfx/results/crossover";

    /** What a front-page part whose runs do not decide says instead. */
    static final String NOT_DECIDED = "not decided here";

    @Override
    public String usage() {
        return "front|all";
    }

    @Override
    public String render(Page page, List<String> args) {
        if (args.equals(List.of("front"))) return front(page);
        if (!args.equals(List.of("all"))) throw new IllegalArgumentException("takes front or all, got " + args);
        List<String> bullets = new ArrayList<>();
        bullets.add(bullet("Blocking waits", () -> blockingWaits(page)));
        bullets.add(bullet("Blocking vs async", () -> blockingVsAsync(page)));
        bullets.add(bullet("Open loop", () -> openLoop(page)));
        bullets.add(bullet("OS threads and memory", () -> threadsAndMemory(page)));
        bullets.add(bullet("Connection scale", () -> connectionScale(page)));
        bullets.add(bullet("Three backend calls per request", () -> hops(page)));
        bullets.add(bullet("CPU-bound work", () -> cpuBound(page)));
        bullets.add(bullet("CPU overload", () -> admission(page)));
        return String.join("\n", bullets);
    }

    /** A bullet's runs are not in the committed files. */
    static final class Missing extends RuntimeException {
        Missing(String what) {
            super(what);
        }
    }

    static String bullet(String title, Supplier<String> text) {
        try {
            return "- **" + title + "**: " + text.get();
        } catch (Missing | ResultFiles.MissingResult e) {
            return "- **" + title + "**: no figure quoted (" + e.getMessage() + ")";
        }
    }

    /** A part of a bullet, or why it quotes nothing: {@code "(not quoted: ...)"}. */
    static String part(Supplier<String> text) {
        try {
            return text.get();
        } catch (Missing | ResultFiles.MissingResult e) {
            return "(not quoted: " + e.getMessage() + ")";
        }
    }

    static <T> T need(Optional<T> value, String what) {
        return value.orElseThrow(() -> new Missing("no " + what));
    }

    /** Fewest runs that decide, from at least {@link #MIN_INVOCATIONS} invocations, behind a figure a bullet quotes. */
    static final int MIN_RUNS = 3;
    static final int MIN_INVOCATIONS = 2;

    /**
     * Set while the front page renders: there a file of one invocation decides nothing, however clean its runs
     * (every figure rests on {@link #MIN_RUNS} unmarked runs from {@link #MIN_INVOCATIONS} invocations).
     */
    static final ThreadLocal<Boolean> STRICT = ThreadLocal.withInitial(() -> false);

    static List<Run> closed(Page page, String dir, String pool, String endpoint, int c) {
        List<Run> runs = Cells.closed(page.files().runs(dir + "/results.csv"), pool, endpoint, c);
        if (runs.isEmpty()) throw new Missing("no " + pool + " " + endpoint + " c=" + c + " in " + dir + "/results.csv");
        return deciding(runs, "`" + pool + "` " + endpoint + " at " + c + " clients in " + dir + "/results.csv");
    }

    /**
     * The runs of one cell that decide (not too short, not cold, settled, not client-limited): the marked ones are left out, as
     * from every verdict, and the cell is quoted only when at least {@link #MIN_RUNS} decide, from at least
     * {@link #MIN_INVOCATIONS} invocations (or, in a file of one invocation, every run decides).
     */
    static List<Run> deciding(List<Run> runs, String cell) {
        List<Run> deciding = runs.stream().filter(r -> !r.marked()).toList();
        long invocations = deciding.stream().map(Run::invocation).distinct().count();
        long inFile = runs.stream().map(Run::invocation).distinct().count();
        boolean enough = deciding.size() == runs.size() && inFile < MIN_INVOCATIONS && !STRICT.get()
                || deciding.size() >= MIN_RUNS && invocations >= MIN_INVOCATIONS;
        if (!enough) throw new Missing(cell + ": " + Run.marks(runs) + " marked; " + deciding.size() + " decide, from " + invocations + " invocation"
                + (invocations == 1 ? "" : "s"));
        return deciding;
    }

    static Stats rpsRatio(Page page, String dir, String a, String b, String endpoint, int c) {
        return need(Cells.ratio(closed(page, dir, a, endpoint, c), closed(page, dir, b, endpoint, c), "rps"), "ratio of " + a + " to " + b);
    }

    static String link(Page page, String file) {
        return page.fileLink(file);
    }

    static Map<String, String> target(Page page, String dir, String id) {
        return page.files().csv(dir + "/targets.csv").stream().filter(t -> id.equals(t.get("id")) && !t.getOrDefault("median", "").isBlank())
                .findFirst().orElseThrow(() -> new Missing("no " + id + " in " + dir + "/targets.csv"));
    }

    static Stats targetStats(Map<String, String> t) {
        double m = Double.parseDouble(t.get("median"));
        String min = t.getOrDefault("min", "");
        String max = t.getOrDefault("max", "");
        return new Stats(m, min.isBlank() ? m : Double.parseDouble(min), max.isBlank() ? m : Double.parseDouble(max), 2);
    }

    String blockingWaits(Page page) {
        String ep = "wait-blocking?ms=100";
        String dflt = "with 50 and 200 clients each waiting 100 ms, `loom` answered " + Fmt.ratioRange(rpsRatio(page, FAIR, "loom", JETTY_DEFAULT, ep, 50))
                + " and " + Fmt.ratioRange(rpsRatio(page, FAIR, "loom", JETTY_DEFAULT, ep, 200)) + " the requests of Jetty's default `new QueuedThreadPool()` (`"
                + JETTY_DEFAULT + "`, 8 threads growing to 200), at " + Fmt.ratioRange(cpuOutsideJitRatio(page, FAIR, "loom", JETTY_DEFAULT, ep, 200))
                + " its CPU per request outside the JIT compiler with 200 clients (" + Fmt.ratioRange(cpuRatio(page, FAIR, "loom", JETTY_DEFAULT, ep, 200))
                + " counting the JIT, still compiling in these windows), with " + threads(page, FAIR, "loom", ep, 200) + " OS threads against "
                + threads(page, FAIR, JETTY_DEFAULT, ep, 200) + " and " + threads(page, FAIR, JETTY_DEFAULT, ep, 50) + " at 50 clients";
        String fixed = part(() -> "; against 200 threads started up front (`qtp:200`), " + Fmt.ratioRange(rpsRatio(page, FAIR, "loom", "qtp:200", ep, 200))
                + " the requests at " + Fmt.ratioRange(cpuOutsideJitRatio(page, FAIR, "loom", "qtp:200", ep, 200)) + " the CPU per request outside the JIT, "
                + threads(page, FAIR, "qtp:200", ep, 200) + " OS threads (" + link(page, FAIR + "/results.csv") + ")");
        String seed = part(() -> "; the seed's comparison, against a 32-thread pool whose 30 request threads bound it by Little's law: "
                + Fmt.ratioRange(rpsRatio(page, FULL, "loom", "qtp:32", ep, 50)) + " and " + Fmt.ratioRange(rpsRatio(page, FULL, "loom", "qtp:32", ep, 200))
                + " (" + link(page, FULL + "/results.csv") + ")");
        return dflt + (fixed.startsWith("(") ? "; against `qtp:200` " + fixed : fixed)
                + (seed.startsWith("(") ? "; the seed's comparison against a 32-thread pool " + seed : seed) + ".";
    }

    static Stats cpuRatio(Page page, String dir, String a, String b, String endpoint, int c) {
        return need(Cells.ratio(closed(page, dir, a, endpoint, c), closed(page, dir, b, endpoint, c), "cpu_ms_per_req"), "CPU ratio of " + a + " to " + b);
    }

    /**
     * The server's CPU per answer with its JIT compiler threads' CPU left out (ms): the cost of serving, without the
     * compilation a closed-loop window at a few hundred requests a second still carries (the bench's warm-up does
     * not wait for the JIT there yet); NaN in files without {@code jit_cpu_s}.
     */
    static double cpuOutsideJit(Run r) {
        return (r.number("cpu_s") - r.number("jit_cpu_s")) * 1000 / r.number("responses");
    }

    static Stats cpuOutsideJitRatio(Page page, String dir, String a, String b, String endpoint, int c) {
        return need(Cells.ratio(closed(page, dir, a, endpoint, c), closed(page, dir, b, endpoint, c), FrontPageBullets::cpuOutsideJit),
                "CPU ratio outside the JIT of " + a + " to " + b);
    }

    /** The median of a cell's peak OS threads, counted. */
    static String threads(Page page, String dir, String pool, String endpoint, int c) {
        return Fmt.count(need(Cells.column(closed(page, dir, pool, endpoint, c), "peak_threads"), pool + " threads").median());
    }

    String blockingVsAsync(Page page) {
        Map<String, String> p1 = target(page, FULL, "P1");
        closed(page, FULL, "loom", "wait-blocking?ms=100", 50); // P1's runs: a marked one keeps the bullet from quoting P1
        closed(page, FULL, "qtp:4", "wait-async?ms=100", 50);
        String many = part(() -> "with 2,000 clients, where the client is not the bound, it made " + Fmt.ratioRange(need(Cells.ratio(
                closed(page, FULL, "loom", "wait-blocking?ms=100", 2000), closed(page, FULL, "loom", "wait-async?ms=100", 2000), "rps"), "ratio"))
                + " the async endpoint's requests (" + link(page, FULL + "/results.csv") + ")");
        return "at 50 clients, blocking code on `loom` made " + Fmt.ratioRange(targetStats(p1))
                + " what an endpoint where no thread waits made, both at what 50 clients waiting 100 ms can ask (P1 in "
                + link(page, FULL + "/targets.csv") + "); " + (many.startsWith("(") ? "with 2,000 clients " + many : many) + ".";
    }

    String openLoop(Page page) {
        List<Run> runs = page.files().runs(FULL + "/results.csv");
        String ep = "wait-blocking?ms=100";
        Stats qtp = offered(runs, "qtp:32", ep, 450, "p99_ms");
        Stats loom = offered(runs, "loom", ep, 450, "p99_ms");
        Stats capacity = offered(runs, "qtp:32", ep, 450, "rps");
        return "offered 450 req/s of 100 ms waits, the seed's `qtp:32`, sized below that load, queued (p99 " + Fmt.rateRange(qtp) + " ms) while `loom` answered with p99 "
                + Fmt.rateRange(loom) + " ms; `qtp:32` answered " + Fmt.rateRange(capacity) + " req/s, " + Fmt.ratio(capacity.median() / 300)
                + " of Little's law's 30 threads / 0.1 s (median of " + qtp.n() + " runs and their range, " + link(page, FULL + "/results.csv") + ").";
    }

    static Stats offered(List<Run> runs, String pool, String endpoint, int rate, String column) {
        List<Run> cell = Cells.open(runs, pool, endpoint, rate);
        if (cell.isEmpty()) throw new Missing("no " + pool + " " + endpoint + " offered " + rate + "/s in " + FULL + "/results.csv");
        String marks = Run.marks(cell);
        if (!marks.isEmpty()) throw new Missing("`" + pool + "` " + endpoint + " offered " + rate + "/s in " + FULL + "/results.csv: " + marks + " marked");
        return need(Cells.column(cell, column), pool + " " + column);
    }

    String threadsAndMemory(Page page) {
        String file = MEMORY + "/memory-per-request.csv";
        List<Map<String, String>> rows = page.files().csv(file);
        Map<String, String> vt = memoryRow(rows, "loom", file);
        Map<String, String> platform = rows.stream().filter(r -> "pool".equals(r.get("role")) && r.get("pool").startsWith("qtp:")
                && "wait-blocking".equals(r.get("route"))).findFirst().orElseThrow(() -> new Missing("no thread-per-request pool in " + file));
        String memory = "holding " + Fmt.count(Double.parseDouble(vt.get("in_flight_target"))) + " waiting requests, heap and native memory together came to "
                + vt.get("sum_kb_per_request") + " KB per request on `loom` against " + platform.get("sum_kb_per_request") + " KB on a thread-per-request `"
                + platform.get("pool") + "`, with " + Fmt.count(Double.parseDouble(vt.get("threads"))) + " OS threads against "
                + Fmt.count(Double.parseDouble(platform.get("threads"))) + " (one run per pool, a sketch: " + link(page, file) + ")";
        String ep = "wait-blocking?ms=1000";
        String threads = part(() -> "; 2,000 clients waiting 1 s each held " + Fmt.count(need(Cells.column(closed(page, FULL, "loom", ep, 2000), "peak_threads"),
                "loom threads").median()) + " OS threads on `loom` against " + Fmt.count(need(Cells.column(closed(page, FULL, "qtp:2500", ep, 2000),
                "peak_threads"), "qtp:2500 threads").median()) + " on a thread-per-client `qtp:2500` (" + link(page, FULL + "/results.csv") + ")");
        return memory + (threads.startsWith("(") ? "; the bench's runs at 2,000 clients " + threads : threads) + ".";
    }

    static Map<String, String> memoryRow(List<Map<String, String>> rows, String pool, String file) {
        return rows.stream().filter(r -> "pool".equals(r.get("role")) && pool.equals(r.get("pool")) && "wait-blocking".equals(r.get("route"))).findFirst()
                .orElseThrow(() -> new Missing("no " + pool + " wait-blocking in " + file));
    }

    String connectionScale(Page page) {
        String ep = "wait-blocking?ms=1000";
        String at5k = part(() -> {
            String[] r = againstLoom(page, ep, 5000);
            return "made " + r[0] + " `loom`'s requests at " + r[1] + " its CPU per request";
        });
        String at10k = part(() -> {
            String[] r = againstLoom(page, ep, 10000);
            return r[0] + " at " + r[1];
        });
        List<Run> collapsed = Cells.closed(page.files().runs(SCALE + "/results.csv"), "qtp:18500", ep, 18000);
        String at18k = collapsed.isEmpty() ? "" : "; with 18,000, " + part(() -> {
            String loom = Fmt.rateRange(need(Cells.column(closed(page, SCALE, "loom", ep, 18000), "rps"), "rps"));
            String marks = Run.marks(collapsed);
            if (marks.isEmpty()) return "it answered " + Fmt.rateRange(need(Cells.column(collapsed, "rps"), "rps")) + " req/s against `loom`'s " + loom;
            return "`loom` answered " + loom + " req/s, and no run of the platform pool decided (" + marks + ")";
        });
        return "with 5,000 clients each waiting 1 s, a pool of a platform thread per client " + at5k + "; with 10,000, " + at10k + at18k
                + " (" + link(page, SCALE + "/results.csv") + ").";
    }

    /** The thread-per-client pool ({@code qtp:c+500}) against {@code loom} at {@code c} clients in scale: its rate's ratio and its CPU per request's. */
    private static String[] againstLoom(Page page, String endpoint, int c) {
        List<Run> qtp = closed(page, SCALE, "qtp:" + (c + 500), endpoint, c);
        List<Run> loom = closed(page, SCALE, "loom", endpoint, c);
        return new String[] {Fmt.ratioRange(need(Cells.ratio(qtp, loom, "rps"), "ratio")),
                Fmt.ratioRange(need(Cells.ratio(qtp, loom, "cpu_ms_per_req"), "CPU ratio"))};
    }

    String hops(Page page) {
        List<Run> urlBlocking = closed(page, HOPS_URL, "loom", "hops-blocking", 1000);
        List<Run> urlAsync = closed(page, HOPS_URL, "loom", "hops-async", 1000);
        List<Run> jdkBlocking = closed(page, HOPS_JDK, "loom", "hops-blocking", 1000);
        List<Run> jdkAsync = closed(page, HOPS_JDK, "loom", "hops-async", 1000);
        return "at 1,000 clients, blocking through `HttpURLConnection` on `loom` made " + Fmt.ratioRange(need(Cells.ratio(urlBlocking, urlAsync, "rps"), "ratio"))
                + " the async chain's requests at " + Fmt.ratioRange(need(Cells.ratio(urlBlocking, urlAsync, "cpu_ms_per_req"), "ratio"))
                + " its CPU per request; through the JDK's `HttpClient.send`, " + Fmt.ratioRange(need(Cells.ratio(jdkBlocking, jdkAsync, "rps"), "ratio"))
                + " at " + Fmt.ratioRange(need(Cells.ratio(jdkBlocking, jdkAsync, "cpu_ms_per_req"), "ratio")) + " (" + link(page, HOPS_URL + "/results.csv")
                + ", " + link(page, HOPS_JDK + "/results.csv") + ").";
    }

    /**
     * CPU-bound work at a fixed load, from the crossover's {@code cpu1} cell: {@code loom} against {@code qtp:200},
     * their CPU per answer and p99 paired by invocation and round; every run must decide, from two invocations.
     */
    String cpuBound(Page page) {
        String file = CROSSOVER + "/crossover.csv";
        Stats[] r = crossoverCpu1(page);
        Stats cpuStats = r[0], p99Stats = r[1];
        String offered = Fmt.count(r[2].median());
        String seed = part(() -> {
            String mixed = "mixed?cpu=1000&sleep=0&file=0";
            List<Run> seedLoom = closed(page, FULL, "loom", mixed, 50);
            List<Run> qtp4 = closed(page, FULL, "qtp:4", mixed, 50);
            return Fmt.ratioRange(need(Cells.ratio(seedLoom, qtp4, "rps"), "ratio")) + " `qtp:4`'s requests (2 request threads on 2 cores) at "
                    + Fmt.ratioRange(need(Cells.ratio(seedLoom, qtp4, "cpu_ms_per_req"), "ratio")) + " its CPU per request (" + link(page, FULL + "/results.csv") + ")";
        });
        return "offered " + offered + " req/s of 1 ms of SHA-256 work each, about half what the cores are estimated to serve,"
                + " `loom` spent " + Fmt.ratioRange(cpuStats) + " the server CPU per answer of `qtp:200`, the fixed pool of 200 threads, at "
                + Fmt.ratioRange(p99Stats) + " its p99 (" + cpuStats.n() + " rounds from 2 invocations, " + link(page, file)
                + "); in the seed's closed-loop comparison, " + seed + ".";
    }

    /**
     * The crossover's {@code cpu1} cell: {@code loom}'s server CPU per answer and p99 over {@code qtp:200}'s, paired by
     * invocation and round, and the offered rate; {@link Missing} unless every run decides, from two invocations.
     */
    static Stats[] crossoverCpu1(Page page) {
        String file = CROSSOVER + "/crossover.csv";
        List<Map<String, String>> cell = page.files().csv(file).stream().filter(r -> "cpu1".equals(r.get("cell")) && "compare".equals(r.get("phase"))).toList();
        List<Map<String, String>> loom = cell.stream().filter(r -> "virtual".equals(r.get("role")) && "loom".equals(r.get("pool"))).toList();
        List<Map<String, String>> qtp200 = cell.stream().filter(r -> "default".equals(r.get("role"))).toList();
        if (loom.isEmpty() || qtp200.isEmpty()) throw new Missing("no cpu1 runs of `loom` and `qtp:200` in " + file);
        long marked = java.util.stream.Stream.concat(loom.stream(), qtp200.stream()).filter(r -> !"true".equals(r.get("decides"))).count();
        if (marked > 0) throw new Missing("cpu1 in " + file + ": " + marked + " of " + (loom.size() + qtp200.size()) + " runs do not decide");
        if (loom.stream().map(r -> r.get("invocation")).distinct().count() < 2) throw new Missing("cpu1 in " + file + ": runs from one invocation");
        List<Double> cpu = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        for (Map<String, String> l : loom) {
            qtp200.stream().filter(q -> q.get("invocation").equals(l.get("invocation")) && q.get("round").equals(l.get("round"))).findFirst().ifPresent(q -> {
                cpu.add(Double.parseDouble(l.get("cpu_ms_per_req")) / Double.parseDouble(q.get("cpu_ms_per_req")));
                p99.add(Double.parseDouble(l.get("p99_ms")) / Double.parseDouble(q.get("p99_ms")));
            });
        }
        if (cpu.isEmpty()) throw new Missing("cpu1 in " + file + ": no round with both pools");
        double offered = Double.parseDouble(loom.getFirst().get("offered_rps"));
        return new Stats[] {Stats.of(cpu), Stats.of(p99), new Stats(offered, offered, offered, 1)};
    }

    String admission(Page page) {
        String file = BOUND + "/bound.csv";
        List<Map<String, String>> rows = page.files().csv(file);
        Map<String, String> open = boundCell(rows, "loom", false, file);
        Map<String, String> preferred = boundCell(rows, "qtp-vtp:8:64", false, file);
        String admissionFile = ADMISSION + "/admission.csv";
        List<Map<String, String>> limited = limitedRuns(page);
        double sized = Double.parseDouble(limited.get(0).get("offered_rps")) / 2;
        Stats goodput = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("goodput_rps"))).toList());
        Stats share = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("goodput_rps")) / sized).toList());
        Stats p99 = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("ok_p99_ms"))).toList());
        long invocations = limited.stream().map(r -> r.getOrDefault("invocation", "1")).distinct().count();
        String runs = limited.size() + (limited.size() == 1 ? " run" : " runs") + " from " + invocations + (invocations == 1 ? " invocation" : " invocations");
        boolean sketch = limited.size() < 3 || invocations < 2;
        return Fmt.count(Double.parseDouble(open.get("concurrency"))) + " clients sending the fibers-server seed's 1 s request of which 5 % is CPU (`"
                + open.get("query") + "`) got " + Fmt.rate(Double.parseDouble(open.get("rps"))) + " req/s from `loom` without a limit; Jetty's preferred shape"
                + " with a cap, `qtp-vtp:8:64`, answered " + Fmt.rate(Double.parseDouble(preferred.get("rps"))) + " req/s with a p99 of "
                + Fmt.ms(Double.parseDouble(preferred.get("p99_ms"))) + " ms (one run per cell, a sketch: " + link(page, file)
                + "). Behind `--max-in-flight " + limited.get(0).get("max_in_flight") + "` and offered twice what that limit is sized for, `loom` answered "
                + Fmt.rateRange(goodput) + " req/s, " + Fmt.ratio(share.median()) + " of it" + (share.single() ? "" : " (" + Fmt.ratio(share.min(), share.median())
                + "-" + Fmt.ratio(share.max(), share.median()) + ")") + ", with a p99 of " + Fmt.ms(p99.median()) + " ms"
                + (p99.single() ? "" : " (" + Fmt.ms(p99.min()) + "-" + Fmt.ms(p99.max()) + ")") + " for its 2xx answers" + againstGoal(page, p99.median())
                + ", refusing the rest ("
                + runs + (sketch ? ", a sketch" : "") + ": " + link(page, admissionFile) + ").";
    }

    static final java.util.regex.Pattern P99_GOAL = java.util.regex.Pattern.compile("p99 under (\\d+) ms");

    /**
     * Whether a p99 meets the goal the admission report sets for the limit (its wait plus the request), as read from
     * admission.md: {@code ", over the limit's 2,000 ms goal"}, or nothing when the report states no goal.
     */
    static String againstGoal(Page page, double p99) {
        java.util.regex.Matcher m = P99_GOAL.matcher(page.files().text(ADMISSION + "/admission.md"));
        if (!m.find()) return "";
        double goal = Double.parseDouble(m.group(1));
        return (p99 < goal ? ", under" : ", over") + " the limit's " + Fmt.ms(goal) + " ms goal";
    }

    /** {@code loom}'s runs behind {@code --max-in-flight} offered twice what the limit is sized for: no failure, the server idle before, no mark of their CPU split. */
    static List<Map<String, String>> limitedRuns(Page page) {
        String admissionFile = ADMISSION + "/admission.csv";
        List<Map<String, String>> limited = page.files().csv(admissionFile).stream()
                .filter(r -> "loom".equals(r.get("pool")) && "open 2.0x".equals(r.get("load")) && r.get("failure").isEmpty()
                        && "true".equals(r.get("idle_before")) && !splitMarked(r)).toList();
        if (limited.isEmpty()) throw new Missing("no unmarked open 2.0x run on loom in " + admissionFile);
        return limited;
    }

    static Map<String, String> boundCell(List<Map<String, String>> rows, String pool, boolean limited, String file) {
        return rows.stream().filter(r -> "cpu".equals(r.get("load")) && pool.equals(r.get("pool"))
                && limited == !"0".equals(r.get("max_in_flight")) && !splitMarked(r)).findFirst()
                .orElseThrow(() -> new Missing("no unmarked cpu load on " + pool + (limited ? " with" : " without") + " a limit in " + file));
    }

    /**
     * A run of admission.csv or bound.csv that the engine's rules marked by its CPU split (client_limited, machine_full):
     * it decides nothing. A run from before the split has neither column: not recorded, so not marked.
     */
    static boolean splitMarked(Map<String, String> r) {
        return "true".equals(r.get("client_limited")) || "true".equals(r.get("machine_full"));
    }

    // ---- the front page: decided readings only, medians, short ----------------------------------------------

    String front(Page page) {
        STRICT.set(true);
        try {
            return String.join("\n", frontBullets(page));
        } finally {
            STRICT.remove();
        }
    }

    List<String> frontBullets(Page page) {
        List<String> bullets = new ArrayList<>();
        frontBullet(bullets, "Blocking waits", () -> frontBlockingWaits(page));
        frontBullet(bullets, "Blocking vs async", () -> frontBlockingVsAsync(page));
        frontBullet(bullets, "Open loop", () -> frontOpenLoop(page));
        frontBullet(bullets, "Connection scale", () -> frontConnectionScale(page));
        frontBullet(bullets, "Three backend calls per request", () -> frontHops(page));
        frontBullet(bullets, "CPU-bound work", () -> frontCpuBound(page));
        frontBullet(bullets, "CPU overload", () -> frontAdmission(page));
        return bullets;
    }

    /** A front-page bullet, or none when its runs do not decide: the front page prints no bookkeeping. */
    static void frontBullet(List<String> bullets, String title, Supplier<String> text) {
        try {
            bullets.add("- **" + title + "**: " + text.get());
        } catch (Missing | ResultFiles.MissingResult e) {
            // left off the front page; docs/results/figures.md's full list says why
        }
    }

    /** A part of a front-page bullet, or {@link #NOT_DECIDED}. */
    static String decided(Supplier<String> text) {
        try {
            return text.get();
        } catch (Missing | ResultFiles.MissingResult e) {
            return NOT_DECIDED;
        }
    }

    /** A link whose text is the result directory's name: {@code [fair](gfx/results/fair/results.csv)}. */
    static String shortLink(Page page, String file) {
        String dir = java.nio.file.Path.of(file).getParent().getFileName().toString();
        return "[" + dir + "](" + page.link(file) + ")";
    }

    /** A median ratio, as {@link Fmt#ratio} prints it, with an x. */
    static String x(Stats s) {
        return Fmt.ratio(s.median()) + "x";
    }

    String frontBlockingWaits(Page page) {
        String ep = "wait-blocking?ms=100";
        String dflt = "with 200 clients each waiting 100 ms, `loom` answered " + x(rpsRatio(page, FAIR, "loom", JETTY_DEFAULT, ep, 200))
                + " the requests of Jetty's default pool (`" + JETTY_DEFAULT + "`) at " + x(cpuOutsideJitRatio(page, FAIR, "loom", JETTY_DEFAULT, ep, 200))
                + " its CPU per request (the JIT's apart), with " + threads(page, FAIR, "loom", ep, 200) + " OS threads against " + threads(page, FAIR, JETTY_DEFAULT, ep, 200);
        String fixed = decided(() -> x(rpsRatio(page, FAIR, "loom", "qtp:200", ep, 200)) + " and " + x(cpuOutsideJitRatio(page, FAIR, "loom", "qtp:200", ep, 200))
                + " against 200 threads started up front (" + shortLink(page, FAIR + "/results.csv") + ")");
        String seed = decided(() -> x(rpsRatio(page, FULL, "loom", "qtp:32", ep, 200)) + " the requests of the seed's `qtp:32`, whose 30 request threads"
                + " bound it by Little's law (" + shortLink(page, FULL + "/results.csv") + ")");
        return dflt + "; " + (fixed.equals(NOT_DECIDED) ? "against `qtp:200`, " + NOT_DECIDED : fixed)
                + "; " + (seed.equals(NOT_DECIDED) ? "against the seed's `qtp:32`, " + NOT_DECIDED : seed) + ".";
    }

    String frontBlockingVsAsync(Page page) {
        return "with 2,000 clients each waiting 100 ms, blocking code on `loom` made " + x(need(Cells.ratio(
                closed(page, FULL, "loom", "wait-blocking?ms=100", 2000), closed(page, FULL, "loom", "wait-async?ms=100", 2000), "rps"), "ratio"))
                + " the requests of an async endpoint where no thread waits (" + shortLink(page, FULL + "/results.csv") + ").";
    }

    String frontOpenLoop(Page page) {
        List<Run> runs = page.files().runs(FULL + "/results.csv");
        String ep = "wait-blocking?ms=100";
        Stats qtp = offered(runs, "qtp:32", ep, 450, "p99_ms");
        Stats loom = offered(runs, "loom", ep, 450, "p99_ms");
        for (String pool : List.of("qtp:32", "loom")) {
            List<Run> cell = Cells.open(runs, pool, ep, 450);
            if (cell.size() < MIN_RUNS || cell.stream().map(Run::invocation).distinct().count() < MIN_INVOCATIONS)
                throw new Missing("open loop: too few runs");
        }
        return "offered 450 req/s of 100 ms waits, `loom` answered with a p99 of " + Fmt.ms(loom.median()) + " ms, while the seed's `qtp:32`"
                + " (at most 300 req/s) queued to " + Fmt.ms(qtp.median()) + " ms (" + shortLink(page, FULL + "/results.csv") + ").";
    }

    String frontConnectionScale(Page page) {
        String ep = "wait-blocking?ms=1000";
        String threads = "2,000 clients waiting 1 s each held " + Fmt.count(need(Cells.column(closed(page, FULL, "loom", ep, 2000), "peak_threads"),
                "loom threads").median()) + " OS threads on `loom` against " + Fmt.count(need(Cells.column(closed(page, FULL, "qtp:2500", ep, 2000),
                "peak_threads"), "qtp:2500 threads").median()) + " on a thread-per-client `qtp:2500` (" + shortLink(page, FULL + "/results.csv") + ")";
        String at5k = decided(() -> {
            String[] r = againstLoomMedians(page, ep, 5000);
            return "with 5,000, a platform thread per client made " + r[0] + " `loom`'s requests at " + r[1] + " its CPU per request";
        });
        boolean beyond = decidedAll(() -> againstLoomMedians(page, ep, 10000), () -> againstLoomMedians(page, ep, 18000));
        return threads + "; " + (at5k.equals(NOT_DECIDED) ? "with 5,000, " + NOT_DECIDED : at5k)
                + (beyond ? "" : "; with 10,000 and 18,000, " + NOT_DECIDED) + " (" + shortLink(page, SCALE + "/results.csv") + ").";
    }

    /** Whether every part decides. */
    @SafeVarargs
    static boolean decidedAll(Supplier<?>... parts) {
        try {
            for (Supplier<?> p : parts) p.get();
            return true;
        } catch (Missing | ResultFiles.MissingResult e) {
            return false;
        }
    }

    private static String[] againstLoomMedians(Page page, String endpoint, int c) {
        List<Run> qtp = closed(page, SCALE, "qtp:" + (c + 500), endpoint, c);
        List<Run> loom = closed(page, SCALE, "loom", endpoint, c);
        return new String[] {x(need(Cells.ratio(qtp, loom, "rps"), "ratio")), x(need(Cells.ratio(qtp, loom, "cpu_ms_per_req"), "CPU ratio"))};
    }

    String frontHops(Page page) {
        List<Run> urlBlocking = closed(page, HOPS_URL, "loom", "hops-blocking", 1000);
        List<Run> urlAsync = closed(page, HOPS_URL, "loom", "hops-async", 1000);
        List<Run> jdkBlocking = closed(page, HOPS_JDK, "loom", "hops-blocking", 1000);
        List<Run> jdkAsync = closed(page, HOPS_JDK, "loom", "hops-async", 1000);
        return "at 1,000 clients, blocking code on `loom` made " + x(need(Cells.ratio(urlBlocking, urlAsync, "rps"), "ratio"))
                + " the async chain's requests at " + x(need(Cells.ratio(urlBlocking, urlAsync, "cpu_ms_per_req"), "ratio"))
                + " its CPU per request through `HttpURLConnection` (" + shortLink(page, HOPS_URL + "/results.csv") + "), "
                + x(need(Cells.ratio(jdkBlocking, jdkAsync, "rps"), "ratio")) + " at " + x(need(Cells.ratio(jdkBlocking, jdkAsync, "cpu_ms_per_req"), "ratio"))
                + " through the JDK's `HttpClient.send` (" + shortLink(page, HOPS_JDK + "/results.csv") + ").";
    }

    String frontCpuBound(Page page) {
        Stats[] r = crossoverCpu1(page);
        if (r[0].n() < MIN_RUNS) throw new Missing("cpu1: too few rounds");
        return "offered " + Fmt.count(r[2].median()) + " req/s of 1 ms of SHA-256 work each, about half what the cores are estimated to serve, `loom` spent "
                + x(r[0]) + " the server CPU per answer of `qtp:200`, at " + x(r[1]) + " its p99 (" + shortLink(page, CROSSOVER + "/crossover.csv") + ").";
    }

    String frontAdmission(Page page) {
        List<Map<String, String>> limited = limitedRuns(page);
        long invocations = limited.stream().map(r -> r.getOrDefault("invocation", "1")).distinct().count();
        if (limited.size() < MIN_RUNS || invocations < MIN_INVOCATIONS) throw new Missing("admission: too few runs");
        double sized = Double.parseDouble(limited.get(0).get("offered_rps")) / 2;
        Stats share = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("goodput_rps")) / sized).toList());
        Stats p99 = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("ok_p99_ms"))).toList());
        return "behind `--max-in-flight " + limited.get(0).get("max_in_flight") + "` and offered twice what that limit is sized for, `loom` answered "
                + Fmt.ratio(share.median()) + " of it with a p99 of " + Fmt.ms(p99.median()) + " ms" + againstGoal(page, p99.median()) + ", and refused the rest ("
                + shortLink(page, ADMISSION + "/admission.csv") + "); without a limit, " + NOT_DECIDED + ".";
    }
}
