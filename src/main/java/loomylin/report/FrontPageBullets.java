package loomylin.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code bullets}: the front page's "what virtual threads buy, in numbers", each bullet a ratio with its range
 * computed from a committed result file and linked to it. A bullet whose runs are not in the files says so
 * instead of quoting a number.
 */
final class FrontPageBullets implements Renderer {
    static final String FULL = "gfx/results/full";
    static final String SCALE = "gfx/results/scale";
    static final String HOPS_URL = "gfx/results/hops-url";
    static final String HOPS_JDK = "gfx/results/hops-jdk";
    static final String BOUND = "gfx/results/bound";
    static final String ADMISSION = "gfx/results/admission";

    @Override
    public String usage() {
        return "(no arguments)";
    }

    @Override
    public String render(Page page, List<String> args) {
        if (!args.isEmpty()) throw new IllegalArgumentException("takes no arguments, got " + args);
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
            return "- **" + title + "**: not in the committed results (" + e.getMessage() + ")";
        }
    }

    static <T> T need(Optional<T> value, String what) {
        return value.orElseThrow(() -> new Missing("no " + what));
    }

    static List<Run> closed(Page page, String dir, String pool, String endpoint, int c) {
        List<Run> runs = Cells.closed(page.files().runs(dir + "/results.csv"), pool, endpoint, c);
        if (runs.isEmpty()) throw new Missing("no " + pool + " " + endpoint + " c=" + c + " in " + dir + "/results.csv");
        if (runs.stream().anyMatch(Run::tooShort))
            throw new Missing(pool + " " + endpoint + " c=" + c + " in " + dir + "/results.csv has runs too short to decide anything");
        return runs;
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
        return "with 50 clients each waiting 100 ms, `loom` answered " + Fmt.ratioRange(rpsRatio(page, FULL, "loom", "qtp:32", ep, 50))
                + " the requests of a 32-thread `QueuedThreadPool`, and " + Fmt.ratioRange(rpsRatio(page, FULL, "loom", "qtp:32", ep, 200))
                + " with 200 clients (" + link(page, FULL + "/results.csv") + ").";
    }

    String blockingVsAsync(Page page) {
        Map<String, String> p1 = target(page, FULL, "P1");
        return "at 50 clients, blocking code on `loom` made " + Fmt.ratioRange(targetStats(p1))
                + " what an endpoint where no thread waits made (P1 in " + link(page, FULL + "/targets.csv") + ").";
    }

    String openLoop(Page page) {
        List<Run> runs = page.files().runs(FULL + "/results.csv");
        String ep = "wait-blocking?ms=100";
        Stats qtp = offered(runs, "qtp:32", ep, 450, "p99_ms");
        Stats loom = offered(runs, "loom", ep, 450, "p99_ms");
        Stats capacity = offered(runs, "qtp:32", ep, 450, "rps");
        return "offered 450 req/s of 100 ms waits, `qtp:32` queued (p99 " + Fmt.rateRange(qtp) + " ms) while `loom` answered with p99 "
                + Fmt.rateRange(loom) + " ms; `qtp:32` answered " + Fmt.rateRange(capacity) + " req/s, " + Fmt.ratio(capacity.median() / 300)
                + " of Little's law's 30 threads / 0.1 s (median of " + qtp.n() + " runs and their range, " + link(page, FULL + "/results.csv") + ").";
    }

    static Stats offered(List<Run> runs, String pool, String endpoint, int rate, String column) {
        List<Run> cell = Cells.open(runs, pool, endpoint, rate);
        if (cell.isEmpty()) throw new Missing("no " + pool + " " + endpoint + " offered " + rate + "/s in " + FULL + "/results.csv");
        return need(Cells.column(cell, column), pool + " " + column);
    }

    String threadsAndMemory(Page page) {
        String ep = "wait-blocking?ms=1000";
        Stats loom = need(Cells.column(closed(page, FULL, "loom", ep, 2000), "peak_threads"), "loom threads");
        Stats qtp = need(Cells.column(closed(page, FULL, "qtp:2500", ep, 2000), "peak_threads"), "qtp:2500 threads");
        Stats growth = need(Cells.ratio(closed(page, FULL, "loom", ep, 2000), closed(page, FULL, "qtp:2500", ep, 2000),
                r -> r.number("peak_rss_kb") - r.number("idle_rss_kb")), "RSS growth ratio");
        return "2,000 clients waiting 1 s each held " + Fmt.count(loom.median()) + " OS threads on `loom` against " + Fmt.count(qtp.median())
                + " on a thread-per-client `qtp:2500`, and `loom`'s resident memory grew " + Fmt.ratioRange(growth) + " as much ("
                + link(page, FULL + "/results.csv") + ").";
    }

    String connectionScale(Page page) {
        String ep = "wait-blocking?ms=1000";
        String[] parts = new String[2];
        int[] levels = {5000, 10000};
        for (int i = 0; i < levels.length; i++) {
            int c = levels[i];
            List<Run> qtp = closed(page, SCALE, "qtp:" + (c + 500), ep, c);
            List<Run> loom = closed(page, SCALE, "loom", ep, c);
            parts[i] = Fmt.ratioRange(need(Cells.ratio(qtp, loom, "rps"), "ratio")) + " at "
                    + Fmt.ratioRange(need(Cells.ratio(qtp, loom, "cpu_ms_per_req"), "CPU ratio"));
        }
        List<Run> collapsed = Cells.closed(page.files().runs(SCALE + "/results.csv"), "qtp:18500", ep, 18000);
        List<Run> loom = closed(page, SCALE, "loom", ep, 18000);
        String at18k = collapsed.isEmpty() ? "" : "; with 18,000 it answered " + Fmt.rateRange(need(Cells.column(collapsed, "rps"), "rps"))
                + " req/s against `loom`'s " + Fmt.rateRange(need(Cells.column(loom, "rps"), "rps"))
                + (collapsed.stream().anyMatch(Run::tooShort) ? ", too few answers per client for the bench to take a ratio" : "");
        return "with 5,000 and 10,000 clients each waiting 1 s, a pool of a platform thread per client made " + parts[0] + " and " + parts[1]
                + " `loom`'s requests and CPU per request" + at18k + " (" + link(page, SCALE + "/results.csv") + ").";
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

    String cpuBound(Page page) {
        String mixed = "mixed?cpu=1000&sleep=0&file=0";
        List<Run> loom = closed(page, FULL, "loom", mixed, 50);
        List<Run> qtp = closed(page, FULL, "qtp:4", mixed, 50);
        return "contention-free SHA-256 work on `loom` made " + Fmt.ratioRange(need(Cells.ratio(loom, qtp, "rps"), "ratio")) + " `qtp:4`'s requests at "
                + Fmt.ratioRange(need(Cells.ratio(loom, qtp, "cpu_ms_per_req"), "ratio")) + " its CPU per request; on `Math.random()`'s shared seed, "
                + Fmt.ratioRange(rpsRatio(page, FULL, "loom", "qtp:4", "computational", 50)) + " (" + link(page, FULL + "/results.csv") + ").";
    }

    String admission(Page page) {
        String file = BOUND + "/bound.csv";
        List<Map<String, String>> rows = page.files().csv(file);
        Map<String, String> open = boundCell(rows, "loom", false, file);
        Map<String, String> preferred = boundCell(rows, "qtp-vtp:8:64", false, file);
        String admissionFile = ADMISSION + "/admission.csv";
        List<Map<String, String>> limited = page.files().csv(admissionFile).stream()
                .filter(r -> "loom".equals(r.get("pool")) && "open 2.0x".equals(r.get("load")) && r.get("failure").isEmpty()
                        && "true".equals(r.get("idle_before"))).toList();
        if (limited.isEmpty()) throw new Missing("no open 2.0x run on loom in " + admissionFile);
        double sized = Double.parseDouble(limited.get(0).get("offered_rps")) / 2;
        Stats goodput = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("goodput_rps"))).toList());
        Stats share = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("goodput_rps")) / sized).toList());
        Stats p99 = Stats.of(limited.stream().map(r -> Double.parseDouble(r.get("ok_p99_ms"))).toList());
        long invocations = limited.stream().map(r -> r.getOrDefault("invocation", "1")).distinct().count();
        String runs = limited.size() + (limited.size() == 1 ? " run" : " runs") + " from " + invocations + (invocations == 1 ? " invocation" : " invocations");
        boolean sketch = limited.size() < 3 || invocations < 2;
        return Fmt.count(Double.parseDouble(open.get("concurrency"))) + " clients sending the fibers-server seed's 1 s request of which 5 % is CPU (`"
                + open.get("query") + "`) got " + Fmt.rate(Double.parseDouble(open.get("rps"))) + " req/s from `loom` without a limit; Jetty's preferred shape"
                + " with a cap, `qtp-vtp:8:64`, answered " + Fmt.rate(Double.parseDouble(preferred.get("rps"))) + " (one run per cell, " + link(page, file)
                + "). Behind `--max-in-flight " + limited.get(0).get("max_in_flight") + "` and offered twice what that limit is sized for, `loom` answered "
                + Fmt.rateRange(goodput) + " req/s, " + Fmt.ratio(share.median()) + " of it" + (share.single() ? "" : " (" + Fmt.ratio(share.min(), share.median())
                + "-" + Fmt.ratio(share.max(), share.median()) + ")") + ", with a p99 of " + Fmt.ms(p99.median()) + " ms"
                + (p99.single() ? "" : " (" + Fmt.ms(p99.min()) + "-" + Fmt.ms(p99.max()) + ")") + " for its 2xx answers, refusing the rest ("
                + runs + (sketch ? ", a sketch" : "") + ": " + link(page, admissionFile) + ").";
    }

    static Map<String, String> boundCell(List<Map<String, String>> rows, String pool, boolean limited, String file) {
        return rows.stream().filter(r -> "cpu".equals(r.get("load")) && pool.equals(r.get("pool"))
                && limited == !"0".equals(r.get("max_in_flight"))).findFirst()
                .orElseThrow(() -> new Missing("no cpu load on " + pool + (limited ? " with" : " without") + " a limit in " + file));
    }
}
