package loomylin.lab.report;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code hop-clients DIR...}: for each directory of {@code bench --preset hops} (one per {@code --hop-client},
 * named after it), {@code /hops-blocking} beside {@code /hops-async} on {@code loom} at each concurrency, and
 * their ratios taken per repeat.
 */
final class HopClientsTable implements Renderer {
    static final String POOL = "loom";

    @Override
    public String usage() {
        return "DIR... (directories of bench --preset hops, e.g. gfx/results/hops-url)";
    }

    @Override
    public String render(Page page, List<String> dirs) {
        if (dirs.isEmpty()) throw new IllegalArgumentException("no result directory");
        StringBuilder out = new StringBuilder("| run | c | /hops-blocking req/s | CPU ms/req | p99 ms | /hops-async req/s | CPU ms/req | p99 ms | blocking/async req/s | CPU ratio | backend CPU ms/req, blocking / async |\n"
                + "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
        List<Run> shown = new java.util.ArrayList<>();
        for (String dir : dirs) {
            String file = dir + "/results.csv";
            List<Run> runs = page.files().runs(file);
            TreeSet<Integer> levels = new TreeSet<>();
            runs.stream().filter(r -> r.pool().equals(POOL) && r.endpoint().equals("hops-blocking")).forEach(r -> levels.add(r.concurrency()));
            if (levels.isEmpty()) throw new IllegalArgumentException("no " + POOL + " /hops-blocking runs in " + file);
            for (int c : levels) {
                List<Run> blocking = Cells.closed(runs, POOL, "hops-blocking", c);
                List<Run> async = Cells.closed(runs, POOL, "hops-async", c);
                shown.addAll(blocking);
                shown.addAll(async);
                out.append("\n| [").append(dir.substring(dir.lastIndexOf('/') + 1)).append("](").append(page.link(file)).append(") | ")
                        .append(Fmt.count(c)).append(" | ")
                        .append(half(blocking)).append(" | ").append(half(async)).append(" | ")
                        .append(or(Cells.ratio(blocking, async, "rps").map(Fmt::ratioRange))).append(" | ")
                        .append(or(Cells.ratio(blocking, async, "cpu_ms_per_req").map(Fmt::ratioRange))).append(" | ")
                        .append(backend(blocking)).append(" / ").append(backend(async)).append(" |");
            }
        }
        out.append("\n\n`").append(POOL).append("`; medians (min-max) of the runs (every repeat of every invocation); ratios per run, each over the one beside it;"
                + " the backend's CPU per request is its JVM's, for the three calls (- where the file predates the column). ").append(Run.marksNote(shown));
        return out.toString();
    }

    static String backend(List<Run> runs) {
        return Cells.column(runs, "backend_cpu_ms_per_req").map(s -> Fmt.cpu(s.median())).orElse("-");
    }

    static String half(List<Run> runs) {
        return or(Cells.column(runs, "rps").map(Fmt::rateRange)) + " | "
                + or(Cells.column(runs, "cpu_ms_per_req").map(s -> Fmt.cpu(s.median()))) + " | "
                + or(Cells.column(runs, "p99_ms").map(s -> Fmt.ms(s.median())));
    }

    static String or(Optional<String> s) {
        return s.orElse("n/a");
    }
}
