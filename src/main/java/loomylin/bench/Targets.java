package loomylin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import loomylin.jetty.PoolKind;
import loomylin.web.Limits;

/**
 * The project's performance targets P1-P6, each computed from the rows of one bench (ratios of runs made
 * minutes apart on the same machine, so that the machine's speed cancels out). A target whose runs the
 * bench did not make is "n/a", not a miss.
 */
final class Targets {
    private Targets() {
    }

    /**
     * One target's verdict.
     *
     * @param value  the computed figure, NaN when the runs are missing
     * @param detail how it was computed, or which runs it needs
     * @param runs   the runs it read, "client-limited" marked
     */
    record Target(String id, String what, double value, String goal, boolean higherIsBetter, double bound, String detail, String runs) {
        String result() {
            if (Double.isNaN(value)) return "n/a";
            return (higherIsBetter ? value >= bound : value <= bound) ? "PASS" : "MISS";
        }

        String valueText() {
            return Double.isNaN(value) ? "n/a" : RunResult.fixed(value, value == Math.rint(value) ? 0 : 3);
        }
    }

    static final PoolKind LOOM = PoolKind.loom();

    static List<Target> evaluate(List<RunResult> rows, int cores) {
        List<Target> out = new ArrayList<>();
        out.add(p1(rows));
        out.addAll(p2(rows));
        out.add(p3(rows));
        out.add(p4(rows));
        out.add(p5(rows, cores));
        out.add(p6(rows));
        return out;
    }

    /** /wait-blocking?ms=100 at c=50 on loom: throughput at least 0.98 of what 50 sleeping clients allow. */
    static Target p1(List<RunResult> rows) {
        String what = "loom, /wait-blocking?ms=100, c=50: req/s over the ideal c / ms";
        Optional<RunResult> r = find(rows, LOOM, e -> e.route().equals("wait-blocking") && ms(e) == 100, 50);
        if (r.isEmpty()) return missing("P1", what, ">= 0.98", true, 0.98, "needs loom wait-blocking?ms=100 at c=50");
        double ideal = 50 * 1000.0 / 100;
        return new Target("P1", what, r.get().rps() / ideal, ">= 0.98", true, 0.98,
                RunResult.fixed(r.get().rps(), 1) + " of " + RunResult.fixed(ideal, 0) + " req/s", runs(r.get()));
    }

    /** /computational at c=50: loom against qtp:4, throughput and p99 latency. */
    static List<Target> p2(List<RunResult> rows) {
        String whatRps = "/computational, c=50: loom req/s over qtp:4 req/s";
        String whatP99 = "/computational, c=50: loom p99 over qtp:4 p99";
        for (RunResult loom : rows) {
            if (!loom.spec().pool().equals(LOOM) || !loom.spec().endpoint().route().equals("computational") || loom.spec().concurrency() != 50) continue;
            Optional<RunResult> qtp = find(rows, PoolKind.qtp(4), e -> e.equals(loom.spec().endpoint()), 50);
            if (qtp.isEmpty()) continue;
            RunResult q = qtp.get();
            return List.of(
                    new Target("P2", whatRps, loom.rps() / q.rps(), ">= 1.0", true, 1.0,
                            RunResult.fixed(loom.rps(), 1) + " / " + RunResult.fixed(q.rps(), 1) + " req/s", runs(loom, q)),
                    new Target("P2", whatP99, loom.p99Ms() / q.p99Ms(), "<= 1.2", false, 1.2,
                            RunResult.fixed(loom.p99Ms(), 1) + " / " + RunResult.fixed(q.p99Ms(), 1) + " ms", runs(loom, q)));
        }
        return List.of(missing("P2", whatRps, ">= 1.0", true, 1.0, "needs loom and qtp:4 on the same computational endpoint at c=50"),
                missing("P2", whatP99, "<= 1.2", false, 1.2, "needs loom and qtp:4 on the same computational endpoint at c=50"));
    }

    /** At c=2000 on loom, blocking waits keep up with asynchronous ones of the same length. */
    static Target p3(List<RunResult> rows) {
        String what = "loom, c=2000: /wait-blocking req/s over /wait-async req/s (same ms)";
        for (RunResult blocking : rows) {
            if (!blocking.spec().pool().equals(LOOM) || !blocking.spec().endpoint().route().equals("wait-blocking") || blocking.spec().concurrency() != 2000) continue;
            int ms = ms(blocking.spec().endpoint());
            Optional<RunResult> async = find(rows, LOOM, e -> e.route().equals("wait-async") && ms(e) == ms, 2000);
            if (async.isPresent())
                return new Target("P3", what, blocking.rps() / async.get().rps(), ">= 0.95", true, 0.95,
                        "ms=" + ms + ": " + RunResult.fixed(blocking.rps(), 1) + " / " + RunResult.fixed(async.get().rps(), 1) + " req/s",
                        runs(blocking, async.get()));
        }
        return missing("P3", what, ">= 0.95", true, 0.95, "needs loom wait-blocking and wait-async with the same ms at c=2000");
    }

    /** At c=1000 on loom, three blocking backend calls keep up with the same chain as futures. */
    static Target p4(List<RunResult> rows) {
        String what = "loom, c=1000: /hops-blocking req/s over /hops-async req/s";
        for (RunResult blocking : rows) {
            if (!blocking.spec().pool().equals(LOOM) || !blocking.spec().endpoint().route().equals("hops-blocking") || blocking.spec().concurrency() != 1000) continue;
            String query = blocking.spec().endpoint().query();
            Optional<RunResult> async = find(rows, LOOM, e -> e.route().equals("hops-async") && e.query().equals(query), 1000);
            if (async.isPresent())
                return new Target("P4", what, blocking.rps() / async.get().rps(), ">= 1.0", true, 1.0,
                        RunResult.fixed(blocking.rps(), 1) + " / " + RunResult.fixed(async.get().rps(), 1) + " req/s", runs(blocking, async.get()));
        }
        return missing("P4", what, ">= 1.0", true, 1.0, "needs loom hops-blocking and hops-async (same query) at c=1000");
    }

    /** However many clients, loom's platform threads stay a small constant. */
    static Target p5(List<RunResult> rows, int cores) {
        int bound = 2 * cores + 24;
        String what = "loom, any run: peak platform (OS) threads, bound 2 x " + cores + " cores + 24";
        RunResult most = null;
        for (RunResult r : rows) if (r.spec().pool().equals(LOOM) && r.peakThreads() >= 0 && (most == null || r.peakThreads() > most.peakThreads())) most = r;
        if (most == null) return missing("P5", what, "<= " + bound, false, bound, "needs any loom run");
        return new Target("P5", what, most.peakThreads(), "<= " + bound, false, bound, "the most of any loom run", runs(most));
    }

    /** 2000 clients sleeping 1 s: the memory loom adds is at most half of what 2500 platform threads add. */
    static Target p6(List<RunResult> rows) {
        String what = "/wait-blocking?ms=1000, c=2000: loom peak-minus-idle RSS over qtp:2500's";
        Predicate<Endpoint> endpoint = e -> e.route().equals("wait-blocking") && ms(e) == 1000;
        Optional<RunResult> loom = find(rows, LOOM, endpoint, 2000);
        Optional<RunResult> qtp = find(rows, PoolKind.qtp(2500), endpoint, 2000);
        if (loom.isEmpty() || qtp.isEmpty() || loom.get().idleRssKb() < 0 || qtp.get().rssGrowthKb() == 0)
            return missing("P6", what, "<= 0.5", false, 0.5, "needs loom and qtp:2500 on wait-blocking?ms=1000 at c=2000");
        return new Target("P6", what, (double) loom.get().rssGrowthKb() / qtp.get().rssGrowthKb(), "<= 0.5", false, 0.5,
                mb(loom.get().rssGrowthKb()) + " / " + mb(qtp.get().rssGrowthKb()) + " MB", runs(loom.get(), qtp.get()));
    }

    static void writeCsv(Path file, List<Target> targets) throws IOException {
        StringBuilder out = new StringBuilder("id,what,value,goal,result,detail,runs\n");
        for (Target t : targets) {
            out.append(String.join(",", t.id(), quote(t.what()), Double.isNaN(t.value()) ? "" : RunResult.fixed(t.value(), 4),
                    quote(t.goal()), t.result(), quote(t.detail()), quote(t.runs()))).append('\n');
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

    private static Optional<RunResult> find(List<RunResult> rows, PoolKind pool, Predicate<Endpoint> endpoint, int concurrency) {
        return rows.stream().filter(r -> r.spec().pool().equals(pool) && r.spec().concurrency() == concurrency
                && endpoint.test(r.spec().endpoint())).findFirst();
    }

    private static Target missing(String id, String what, String goal, boolean higherIsBetter, double bound, String needs) {
        return new Target(id, what, Double.NaN, goal, higherIsBetter, bound, needs, "");
    }

    private static String runs(RunResult... rows) {
        List<String> names = new ArrayList<>();
        for (RunResult r : rows) names.add(r.spec().describe() + (r.clientLimited() ? " (client-limited)" : ""));
        return String.join("; ", names);
    }

    private static String mb(long kb) {
        return RunResult.fixed(kb / 1024.0, 1);
    }
}
