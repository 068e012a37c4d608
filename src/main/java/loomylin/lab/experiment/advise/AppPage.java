package loomylin.lab.experiment.advise;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Spread;
import loomylin.lab.engine.run.FixedLoad;
import loomylin.lab.engine.run.Shapes;
import loomylin.lab.engine.run.Warmup;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;

/**
 * advise-app.md from advise-app.csv alone: the shapes and the rule that sized one, a verdict against Jetty's default
 * (the medians of the runs that decide), every run with its marks, and the pins and where. A shape decides on runs
 * from {@link AdvisePage#INVOCATIONS} invocations; from fewer, its figures are a sketch and the page says so.
 */
public final class AppPage {
    /** Another shape is better than Jetty's default when its p99 is at most this share of the default's ... */
    public static final double BETTER = 0.9;
    /** ... and its CPU per request at most this multiple of the default's. */
    public static final double NO_DEARER = 1.1;

    private AppPage() {
    }

    /** Writes advise-app.md from {@code dir}'s advise-app.csv and prints it; measures nothing. */
    static Path rerender(Path dir, PrintStream page, PrintStream progress) {
        Path csv = dir.resolve(AppAdvise.CSV);
        if (!Files.exists(csv)) throw new UsageError("no " + AppAdvise.CSV + " in " + dir + " to render advise-app.md from");
        List<AppRow> rows;
        try {
            rows = AppRow.TABLE.read(csv);
        } catch (IOException e) {
            throw new StartupFailure("advise --app: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new UsageError(csv + " cannot be read as advise --app's results: " + e.getMessage());
        }
        String text = render(rows);
        try {
            Files.writeString(dir.resolve(AppAdvise.PAGE), text);
        } catch (IOException e) {
            throw new StartupFailure("advise --app: " + e.getMessage());
        }
        page.print(text);
        progress.printf("advise --app: %s written from %d runs in %s%n", dir.resolve(AppAdvise.PAGE), rows.size(), csv);
        return dir;
    }

    static String render(List<AppRow> rows) {
        StringBuilder md = new StringBuilder();
        AppRow any = rows.isEmpty() ? null : rows.getFirst();
        List<String> shapes = shapes(rows);
        int invocations = (int) rows.stream().mapToInt(AppRow::invocation).distinct().count();
        md.append("# advise --app: ").append(any == null ? "no runs" : "`" + any.url() + "`").append(" on ").append(shapes.size()).append(" pool shapes\n\n");
        if (any == null) return md.append("No runs in the CSV.\n").toString();
        md.append(String.format(Locale.ROOT, "Your application, `%s`, started under Loomylin's agent once per shape and run (a fresh JVM each time), offered"
                        + " `%s` open loop with oha at %d req/s over %d connections (latency from each request's intended send time): warm-up slices at"
                        + " that rate until two in a row cost the same CPU per answer within %.0f %%, a pause with no load (what the JVM spends idle), then a %d s window. %d runs from %d"
                        + " invocation(s), each invocation's command and machine in its provenance file. *CPU per request* is your application's JVM's"
                        + " CPU over the window (from /proc; oha's is counted apart) over its 2xx answers.%s%n%n",
                any.app(), any.url(), any.w().offeredRps(), any.connections(), 100 * FixedLoad.SETTLE_SHARE, any.w().windowS(),
                rows.size(), invocations, FixedLoad.jitRule(rows.stream().anyMatch(r -> r.w().jit().warm() != null))));
        md.append("| shape | pool | what it is |\n|---|---|---|\n");
        for (String shape : shapes) md.append(String.format(Locale.ROOT, "| %s | `%s` | %s |%n", shape, pool(rows, shape), what(shape, rows)));
        md.append("\n## Verdict\n\n").append(verdict(rows, shapes)).append("\n\n");
        md.append("## Per run\n\n| shape | pool | invocation | round | CPU ms/req | of it JIT | of it GC | p50 ms | p99 ms | answers | errors | peak OS threads"
                + " | peak RSS MB | pinned | decides |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String shape : shapes) {
            for (AppRow r : of(rows, shape)) {
                if (r.failed()) {
                    md.append(String.format(Locale.ROOT, "| %s | `%s` | %d | %d | failed: %s | | | | | | | | | | no |%n", shape, r.pool(), r.invocation(), r.round(),
                            r.failure().replace("|", "/")));
                    continue;
                }
                FixedLoad.Window w = r.w();
                md.append(String.format(Locale.ROOT, "| %s | `%s` | %d | %d | %s | %s | %s | %s | %s | %d | %d | %d | %s | %s | %s |%n", shape, r.pool(), r.invocation(),
                        r.round(), Column.fixed(w.cpuMsPerRequest(), 4), Column.fixed(w.jit().jitMsPer(w.answers()), 4), Column.fixed(w.jit().gcMsPer(w.answers()), 4),
                        Column.fixed(w.p50Ms(), 1), Column.fixed(w.p99Ms(), 1), w.answers(), w.errors(), r.peakThreads(), Column.fixed(r.peakRssMb(), 0),
                        Double.isNaN(r.pinned()) ? "n/a" : Column.fixed(r.pinned(), 0), r.decides() ? "yes" : "marked: " + String.join(", ", r.marks())));
            }
        }
        md.append(String.format(Locale.ROOT, "%nA run decides when it was warm (the JIT quiet, at most %.0f %% of the CPU in its last warm-up slice), settled,"
                        + " answered at least %.0f %% of the offered requests with no error, was not too short (%d answers) and the client was not the limit;"
                        + " the others are marked and left out of the verdict. *Peak OS threads* and *peak RSS* are your JVM's over the run (from /proc).%n%n",
                100 * Warmup.QUIET_SHARE, 100 * FixedLoad.RATE_MET_SHARE, loomylin.lab.engine.run.RunResult.MIN_ANSWERS));
        md.append("## Pins\n\n").append(pins(rows, shapes)).append('\n');
        return md.toString();
    }

    /** The shapes in the order they ran. */
    static List<String> shapes(List<AppRow> rows) {
        return rows.stream().map(AppRow::shape).distinct().toList();
    }

    static List<AppRow> of(List<AppRow> rows, String shape) {
        return rows.stream().filter(r -> r.shape().equals(shape)).toList();
    }

    private static String pool(List<AppRow> rows, String shape) {
        return String.join("`, `", of(rows, shape).stream().map(r -> r.pool().toString()).distinct().toList());
    }

    private static String what(String shape, List<AppRow> rows) {
        return switch (shape) {
            case AppAdvise.Shape.DEFAULT -> "Jetty's default, `new QueuedThreadPool()`: 8 threads, growing to 200";
            case AppAdvise.Shape.LITTLE -> {
                AppRow r = of(rows, shape).getFirst();
                yield String.format(Locale.ROOT, "a platform pool sized by Little's law from a first measurement on Jetty's default: mean latency %s ms at %d req/s;"
                                + " request threads = %.2f x rate x mean latency, rounded up, at least one per core, plus Jetty's connector threads (an acceptor and"
                                + " a selector per two cores), at least %d in all", Column.fixed(r.probeMeanMs(), 1), r.w().offeredRps(),
                        AppAdvise.HEADROOM, AppAdvise.LEAST_THREADS);
            }
            case AppAdvise.Shape.LOOM -> "a virtual thread per request (Loomylin's `LoomThreadPool`)";
            case AppAdvise.Shape.PREFERRED -> "Jetty's preferred shape for blocking work (`" + Shapes.PREFERRED + "`): a small QueuedThreadPool for Jetty's loops,"
                    + " requests on a VirtualThreadPool capped at 200 running at once";
            default -> "";
        };
    }

    /** The medians over a shape's deciding runs; NaN when none decides. */
    static double median(List<AppRow> rows, String shape, ToDoubleFunction<AppRow> figure) {
        return Spread.of(of(rows, shape).stream().filter(AppRow::decides).map(figure::applyAsDouble).toList()).median();
    }

    /** How a shape stands: its medians, or why it has none. */
    static String figures(List<AppRow> rows, String shape) {
        List<AppRow> runs = of(rows, shape);
        List<AppRow> deciding = runs.stream().filter(AppRow::decides).toList();
        if (deciding.isEmpty()) {
            List<String> why = runs.stream().flatMap(r -> r.failed() ? java.util.stream.Stream.of("failed: " + r.failure()) : r.marks().stream()).distinct().toList();
            return String.format(Locale.ROOT, "%s decided nothing (%d run(s): %s)", shape, runs.size(), String.join("; ", why));
        }
        long from = deciding.stream().mapToInt(AppRow::invocation).distinct().count();
        return String.format(Locale.ROOT, "%s (`%s`) %s ms of CPU per request, p99 %s ms (median of %d deciding run(s)%s%s)", shape, pool(rows, shape),
                Column.fixed(median(rows, shape, r -> r.w().cpuMsPerRequest()), 4), Column.fixed(median(rows, shape, r -> r.w().p99Ms()), 1), deciding.size(),
                deciding.size() < runs.size() ? ", " + (runs.size() - deciding.size()) + " marked" : "",
                from < AdvisePage.INVOCATIONS ? "; undecided: runs from one invocation" : "");
    }

    /**
     * Against Jetty's default: the shape whose p99 is at most {@link #BETTER} of the default's with at most
     * {@link #NO_DEARER} of its CPU per request, the lowest p99 of those; else keep the default.
     */
    static String verdict(List<AppRow> rows, List<String> shapes) {
        String base = AppAdvise.Shape.DEFAULT;
        List<String> sentences = new ArrayList<>();
        double baseP99 = median(rows, base, r -> r.w().p99Ms());
        double baseCpu = median(rows, base, r -> r.w().cpuMsPerRequest());
        boolean sketch = shapes.stream().anyMatch(s -> of(rows, s).stream().filter(AppRow::decides).mapToInt(AppRow::invocation).distinct().count()
                < AdvisePage.INVOCATIONS);
        if (Double.isNaN(baseP99)) {
            sentences.add("No verdict: Jetty's default, the shape every other is compared with, decided nothing; the runs below say why.");
        } else {
            String best = null;
            for (String s : shapes) {
                if (s.equals(base)) continue;
                double p99 = median(rows, s, r -> r.w().p99Ms());
                double cpu = median(rows, s, r -> r.w().cpuMsPerRequest());
                if (Double.isNaN(p99) || p99 > BETTER * baseP99 || cpu > NO_DEARER * baseCpu) continue;
                if (best == null || p99 < median(rows, best, r -> r.w().p99Ms())) best = s;
            }
            if (best == null) {
                sentences.add(String.format(Locale.ROOT, "Keep Jetty's default: no other shape had a p99 under %.0f %% of its %s ms without costing more than"
                        + " %.0f %% more CPU per request.", 100 * BETTER, Column.fixed(baseP99, 1), 100 * (NO_DEARER - 1)));
            } else {
                double p99 = median(rows, best, r -> r.w().p99Ms());
                double cpu = median(rows, best, r -> r.w().cpuMsPerRequest());
                sentences.add(String.format(Locale.ROOT, "Consider %s (`%s`): p99 %s ms against %s ms on Jetty's default (%.2fx), at %s ms of CPU per request"
                                + " against %s (%.2fx).", best, pool(rows, best), Column.fixed(p99, 1), Column.fixed(baseP99, 1), p99 / baseP99,
                        Column.fixed(cpu, 4), Column.fixed(baseCpu, 4), cpu / baseCpu));
            }
        }
        sentences.add("Each shape: " + String.join("; ", shapes.stream().map(s -> figures(rows, s)).toList()) + ".");
        if (sketch)
            sentences.add("A shape's figures from fewer than " + AdvisePage.INVOCATIONS + " invocations are a sketch: confirm with --invocations "
                    + AdvisePage.INVOCATIONS + " (another call into the same --out adds to these runs).");
        return String.join(" ", sentences);
    }

    /** The pinned virtual threads per shape (the agent's, from the server's start to the window's end) and where. */
    static String pins(List<AppRow> rows, List<String> shapes) {
        StringBuilder out = new StringBuilder();
        for (String shape : shapes) {
            List<AppRow> measured = of(rows, shape).stream().filter(r -> !r.failed()).toList();
            if (measured.isEmpty()) {
                out.append("- ").append(shape).append(": no run measured\n");
                continue;
            }
            if (measured.stream().allMatch(r -> Double.isNaN(r.pinned()))) {
                out.append("- ").append(shape).append(": not known (the application's JDK gave the agent no Flight Recorder events)\n");
                continue;
            }
            double most = measured.stream().mapToDouble(AppRow::pinned).filter(x -> !Double.isNaN(x)).max().orElse(0);
            AppRow worst = measured.stream().filter(r -> r.pinned() == most).findFirst().orElseThrow();
            if (most == 0) {
                out.append("- ").append(shape).append(": none pinned\n");
                continue;
            }
            out.append(String.format(Locale.ROOT, "- %s: up to %s virtual threads pinned in a run (%s s in all)%s%n", shape, Column.fixed(most, 0),
                    Column.fixed(worst.pinnedS(), 3), worst.pinnedWhere().isEmpty() ? "" : ", most at: " + worst.pinnedWhere()));
        }
        boolean platformOnly = shapes.stream().allMatch(s -> of(rows, s).stream().allMatch(r -> r.pool().type() == PoolKind.Type.QTP));
        out.append(String.format(Locale.ROOT, "%nA pin holds one of the few carrier threads for as long as the virtual thread blocks: on JDK 21,"
                + " `synchronized` around a blocking call; on any JDK, native code or a class initialiser. The counts are the agent's"
                + " (`loomylin_virtual_threads_pinned_total` on its `/metrics`), from the server's start to the end of the window, warm-up"
                + " included; the places its `/pool`'s `pinnedWhere`.%s%n", platformOnly ? " No shape here ran virtual threads." : ""));
        return out.toString();
    }
}
