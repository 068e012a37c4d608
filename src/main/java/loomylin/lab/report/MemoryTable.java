package loomylin.lab.report;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code memory DIR ENDPOINT CONCURRENCY}: what each pool's server process held at one closed-loop cell of
 * DIR/results.csv: resident memory before load and its growth under it, and OS threads.
 */
final class MemoryTable implements Renderer {
    @Override
    public String usage() {
        return "DIR ENDPOINT CONCURRENCY (e.g. gfx/results wait-blocking?ms=1000 2000)";
    }

    @Override
    public String render(Page page, List<String> args) {
        if (args.size() != 3) throw new IllegalArgumentException("expected a directory, an endpoint and a concurrency, got " + args);
        String file = args.get(0) + "/results.csv";
        int c = Integer.parseInt(args.get(2));
        List<Run> runs = page.files().runs(file).stream()
                .filter(r -> !r.open() && r.endpoint().equals(args.get(1)) && r.concurrency() == c).toList();
        if (runs.isEmpty()) throw new IllegalArgumentException("no closed-loop runs of " + args.get(1) + " at c=" + c + " in " + file);
        Set<String> pools = new LinkedHashSet<>();
        runs.forEach(r -> pools.add(r.pool()));
        StringBuilder out = new StringBuilder(
                "| pool | req/s | p99 ms | idle RSS MB | RSS growth (peak - idle) MB | peak RSS MB | OS threads |\n|---|--:|--:|--:|--:|--:|--:|");
        for (String pool : pools) {
            List<Run> cell = Cells.closed(runs, pool, args.get(1), c);
            out.append("\n| `").append(pool).append("` | ")
                    .append(Cells.column(cell, "rps").map(Fmt::rateRange).orElse("")).append(" | ")
                    .append(Cells.column(cell, "p99_ms").map(s -> Fmt.ms(s.median())).orElse("")).append(" | ")
                    .append(Cells.column(cell, "idle_rss_kb").map(s -> range(s)).orElse("")).append(" | ")
                    .append(Cells.stats(cell, r -> r.number("peak_rss_kb") - r.number("idle_rss_kb")).map(s -> "+" + range(s)).orElse("")).append(" | ")
                    .append(Cells.column(cell, "peak_rss_kb").map(s -> Fmt.mb(s.median())).orElse("")).append(" | ")
                    .append(Cells.column(cell, "peak_threads").map(s -> Fmt.count(s.median())).orElse("")).append(" |");
        }
        out.append("\n\nMB are MiB; medians (min-max) of the repeats at c=").append(Fmt.rate(c)).append(", from ").append(page.fileLink(file)).append(". ")
                .append(Run.marksNote(runs));
        return out.toString();
    }

    static String range(Stats s) {
        return Fmt.mb(s.median()) + (s.single() ? "" : " (" + Fmt.mb(s.min()) + "-" + Fmt.mb(s.max()) + ")");
    }
}
