package loomylin.bench.crossover;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import loomylin.bench.fibers.Calibration;
import loomylin.bench.output.Spread;
import loomylin.bench.run.RunResult;

/**
 * What the crossover grid says: per cell, loom's figure divided by the best platform pool's (the better of
 * qtp:200 and the Little's-law pool, per metric and repeat) and by the async endpoint's, as the median and range
 * over repeats; as tables, as heat maps, and as one sentence naming the least wait per CPU level from which loom
 * matches or beats the best platform pool's throughput.
 */
public final class CrossoverReport {
    private CrossoverReport() {
    }

    /** loom "matches" a pool when it makes at least this share of its throughput. */
    public static final double MATCH = 0.95;

    public static final List<String> CSV_COLUMNS;

    static {
        List<String> columns = new ArrayList<>(List.of("wait_ms", "cpu_ms", "cpu_iterations", "role", "failure"));
        columns.addAll(RunResult.COLUMNS);
        CSV_COLUMNS = List.copyOf(columns);
    }

    /** A figure loom is compared on; {@code higherIsBetter} for throughput, lower for latency and CPU. */
    public enum Metric {
        THROUGHPUT("throughput", true, RunResult::rps),
        P99("p99 latency", false, RunResult::p99Ms),
        CPU("CPU per request", false, RunResult::cpuMsPerRequest);

        public final String title;
        public final boolean higherIsBetter;
        final ToDoubleFunction<RunResult> value;

        Metric(String title, boolean higherIsBetter, ToDoubleFunction<RunResult> value) {
            this.title = title;
            this.higherIsBetter = higherIsBetter;
            this.value = value;
        }
    }

    /** What loom is compared with. */
    public enum Versus {
        PLATFORM("the best platform pool", "platform", Grid.Role::platform),
        ASYNC("async (/mixed-async)", "async", r -> r == Grid.Role.ASYNC);

        public final String title;
        public final String slug;
        final Predicate<Grid.Role> roles;

        Versus(String title, String slug, Predicate<Grid.Role> roles) {
            this.title = title;
            this.slug = slug;
            this.roles = roles;
        }

        public String fileName() {
            return "crossover-vs-" + slug + ".png";
        }
    }

    static String csvLine(Crossover.Row row, Calibration calibration) {
        Grid.Run run = row.run();
        List<String> fields = new ArrayList<>(List.of(Integer.toString(run.cell().waitMs()), RunResult.fixed(run.cell().cpuMs(), 3),
                Integer.toString(Crossover.iterations(calibration, run.cell().cpuMs())), run.role().label,
                row.failure() == null ? "" : "\"" + row.failure().replace("\"", "'") + "\""));
        if (row.result() != null) {
            fields.addAll(row.result().csvFields());
        } else {
            fields.addAll(List.of(run.pool().toString(), run.endpoint().toString()));
            for (int i = 2; i < RunResult.COLUMNS.size(); i++) fields.add("");
        }
        return String.join(",", fields) + "\n";
    }

    /** loom / the best of {@code versus} in one cell, per repeat; empty when a side has no finished run. */
    public static Spread ratio(List<Crossover.Row> rows, Grid.Cell cell, Metric metric, Versus versus) {
        List<Double> ratios = new ArrayList<>();
        for (int repeat : repeats(rows)) {
            Optional<Double> loom = value(rows, cell, repeat, metric, r -> r == Grid.Role.LOOM);
            Optional<Double> best = value(rows, cell, repeat, metric, versus.roles);
            if (loom.isPresent() && best.isPresent() && best.get() > 0) ratios.add(loom.get() / best.get());
        }
        return Spread.of(ratios);
    }

    /** The best value (by the metric's direction) of the finished runs of these roles in one cell and repeat. */
    private static Optional<Double> value(List<Crossover.Row> rows, Grid.Cell cell, int repeat, Metric metric, Predicate<Grid.Role> roles) {
        return best(rows, cell, repeat, metric, roles).map(r -> metric.value.applyAsDouble(r.result()));
    }

    /**
     * A run may decide a ratio only when it finished, settled (its window's rate within {@link RunResult#SETTLED_WITHIN}
     * of its warm-up's), was not too short, and the load generator was not the limit: otherwise it measured a ramp,
     * too few answers, or the client. Runs that do not decide are marked in the table of every run and left out of
     * every ratio, so a cell whose sides have no deciding run reads "undecided".
     */
    static boolean decides(Crossover.Row row) {
        RunResult r = row.result();
        return r != null && r.settled() && !r.tooShort() && !r.clientLimited();
    }

    /** Why a finished run does not decide, for the table of every run; "" when it does. */
    static String mark(RunResult r) {
        List<String> why = new ArrayList<>();
        if (r.clientLimited()) why.add("client-limited");
        if (!r.settled()) why.add("unsettled");
        if (r.tooShort()) why.add("too short");
        return String.join(", ", why);
    }

    /** The best deciding run of these roles in one cell and repeat. */
    static Optional<Crossover.Row> best(List<Crossover.Row> rows, Grid.Cell cell, int repeat, Metric metric, Predicate<Grid.Role> roles) {
        Comparator<Crossover.Row> order = Comparator.comparingDouble(r -> metric.value.applyAsDouble(r.result()));
        return rows.stream().filter(r -> decides(r) && r.run().cell().equals(cell) && r.run().repeat() == repeat && roles.test(r.run().role()))
                .filter(r -> !Double.isNaN(metric.value.applyAsDouble(r.result())))
                .max(metric.higherIsBetter ? order : order.reversed());
    }

    private static List<Integer> repeats(List<Crossover.Row> rows) {
        return rows.stream().map(r -> r.run().repeat()).distinct().sorted().toList();
    }

    static List<Integer> waits(List<Crossover.Row> rows) {
        return rows.stream().map(r -> r.run().cell().waitMs()).distinct().sorted().toList();
    }

    static List<Double> cpus(List<Crossover.Row> rows) {
        return rows.stream().map(r -> r.run().cell().cpuMs()).distinct().sorted().toList();
    }

    /**
     * The crossover in words, from the data: per CPU level, the least wait from which loom's throughput is at
     * least {@link #MATCH} of the best platform pool's at that wait and every longer one measured.
     */
    public static String sentence(List<Crossover.Row> rows) {
        List<String> from = new ArrayList<>();
        List<String> never = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        List<Integer> waits = waits(rows);
        for (double cpu : cpus(rows)) {
            Integer least = null;
            boolean decided = true;
            for (int wait : waits.reversed()) {
                Spread s = ratio(rows, new Grid.Cell(wait, cpu), Metric.THROUGHPUT, Versus.PLATFORM);
                if (s.count() == 0) {
                    decided = least != null;
                    break;
                }
                if (s.median() < MATCH) break;
                least = wait;
            }
            if (!decided) undecided.add(ms(cpu));
            else if (least == null) never.add(ms(cpu));
            else from.add("from a wait of " + least + " ms with " + ms(cpu) + " ms of CPU per request ("
                    + times(ratio(rows, new Grid.Cell(least, cpu), Metric.THROUGHPUT, Versus.PLATFORM)) + " there)");
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "Crossover: virtual threads (loom) matched or beat the best platform pool's throughput (at least %.2fx, at that wait and every longer one measured) ", MATCH));
        if (!from.isEmpty()) out.append(String.join("; ", from));
        if (!never.isEmpty()) out.append(from.isEmpty() ? "" : "; ").append("with ").append(String.join(", ", never))
                .append(" ms of CPU at no wait measured up to ").append(waits.isEmpty() ? "-" : waits.getLast()).append(" ms");
        if (!undecided.isEmpty()) out.append(from.isEmpty() && never.isEmpty() ? "nowhere decided" : "").append("; undecided with ")
                .append(String.join(", ", undecided)).append(" ms of CPU (no settled run that the client did not limit on both sides at the longest wait)");
        return out.append('.').toString();
    }

    /** The platform pool (or async pool) that was best in most repeats of a cell, for the maps' labels. */
    static Optional<String> bestPool(List<Crossover.Row> rows, Grid.Cell cell, Metric metric, Versus versus) {
        return repeats(rows).stream().map(r -> best(rows, cell, r, metric, versus.roles)).flatMap(Optional::stream)
                .map(r -> r.run().pool().toString()).collect(java.util.stream.Collectors.groupingBy(p -> p, java.util.stream.Collectors.counting()))
                .entrySet().stream().max(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey);
    }

    /** "1.33x (0.69-1.97)", or "1.33x" for one repeat. */
    static String times(Spread s) {
        String median = RunResult.fixed(s.median(), 2) + "x";
        return s.count() > 1 && s.min() != s.max() ? median + " (" + RunResult.fixed(s.min(), 2) + "-" + RunResult.fixed(s.max(), 2) + ")" : median;
    }

    static String ms(double cpu) {
        return RunResult.fixed(cpu, cpu == Math.rint(cpu) ? 0 : 2);
    }

    static void write(Path dir, String commandLine, Crossover.Settings s, Calibration calibration, List<Crossover.Row> rows) throws IOException {
        List<String> charts = new ArrayList<>();
        for (Versus v : Versus.values()) {
            if (heatMaps(dir.resolve(v.fileName()), rows, v)) charts.add(v.fileName());
            else Files.deleteIfExists(dir.resolve(v.fileName()));
        }
        StringBuilder md = new StringBuilder("# The crossover map\n\n");
        md.append("Command: `").append(commandLine).append("` (provenance in provenance.json).\n\n");
        md.append(String.format(Locale.ROOT, "Each cell is `/mixed?cpu=ITERATIONS&sleep=WAIT&file=0%s` (%.0f SHA-256 iterations per ms of CPU, calibrated at the start; %s)"
                + " closed-loop at c=%d with wrk: a %d s warm-up at the same concurrency, then a %d s window; %d repeat(s), interleaved across the pools;"
                + " a fresh server JVM per run. Pools: `loom`, `qtp:200`, `little` (the platform pool Little's law sizes for the cell:"
                + " min(c, cores x (wait + cpu) / cpu) request threads plus the connector's 2, cpu taken as at least %s ms), `preferred` (`%s`),"
                + " and `/mixed-async` on %s. Ratios are loom's figure over the other's, the median of the repeats with their range;"
                + " for throughput above 1 is better for loom, for p99 and CPU per request below 1. Only runs that settled, were not too short"
                + " and were not client-limited decide a ratio; a cell without such runs on both sides reads undecided, and the table of every"
                + " run marks the others.%n%n",
                s.calls() > 0 ? "&calls=" + s.calls() : "", calibration.iterationsPerMs(),
                s.calls() > 0 ? "the wait as " + s.calls() + " consecutive calls to the backend's /echo" : "the wait as a sleep", s.concurrency(), s.warmup().toSeconds(), s.measureS(), s.repeat(), Grid.SIZING_CPU_FLOOR_MS,
                Shapes.PREFERRED, String.join(", ", Shapes.ASYNC)));
        md.append(sentence(rows)).append("\n\n");
        charts.forEach(c -> md.append("![").append(c).append("](").append(c).append(")\n\n"));
        for (Versus v : Versus.values()) {
            for (Metric m : Metric.values()) {
                md.append("## loom vs ").append(v.title).append(": ").append(m.title).append("\n\n| CPU ms \\ wait ms |");
                waits(rows).forEach(w -> md.append(' ').append(w).append(" |"));
                md.append("\n|---|").append("---|".repeat(waits(rows).size())).append('\n');
                for (double cpu : cpus(rows)) {
                    md.append("| ").append(ms(cpu)).append(" |");
                    for (int w : waits(rows)) {
                        Spread sp = ratio(rows, new Grid.Cell(w, cpu), m, v);
                        md.append(' ').append(sp.count() == 0 ? "undecided" : times(sp) + " vs `" + bestPool(rows, new Grid.Cell(w, cpu), m, v).orElse("?") + "`")
                                .append(" |");
                    }
                    md.append('\n');
                }
                md.append('\n');
            }
        }
        md.append("## Every run\n\n| wait ms | CPU ms | role | pool | endpoint | req/s | p50 ms | p99 ms | CPU ms/req | OS threads | errors | note |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Crossover.Row r : rows) {
            RunResult x = r.result();
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | `%s` | `/%s` | %s | %s | %s | %s | %s | %s | %s |%n", r.run().cell().waitMs(),
                    ms(r.run().cell().cpuMs()), r.run().role().label, r.run().pool(), r.run().endpoint(),
                    x == null ? "" : RunResult.fixed(x.rps(), 1), x == null ? "" : RunResult.fixed(x.p50Ms(), 2), x == null ? "" : RunResult.fixed(x.p99Ms(), 2),
                    x == null ? "" : RunResult.fixed(x.cpuMsPerRequest(), 3), x == null ? "" : RunResult.count(x.peakThreads()),
                    x == null ? "" : Long.toString(x.errors()),
                    x == null ? "failed: " + r.failure().replace("|", "/") : mark(x)));
        }
        Files.writeString(dir.resolve(Crossover.REPORT), md.toString());
    }

    private static final int MAP_W = 600;
    private static final int MAP_H = 420;

    /** Three heat maps side by side (throughput, p99, CPU per request), undecided cells grey; false when the grid is empty. */
    static boolean heatMaps(Path file, List<Crossover.Row> rows, Versus versus) throws IOException {
        List<Integer> waits = waits(rows);
        List<Double> cpus = cpus(rows);
        if (waits.isEmpty() || cpus.isEmpty()) return false;
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(MAP_W * Metric.values().length, MAP_H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int m = 0; m < Metric.values().length; m++) {
                Metric metric = Metric.values()[m];
                int x0 = m * MAP_W + 90;
                int y0 = 50;
                int cellW = (MAP_W - 110) / waits.size();
                int cellH = (MAP_H - 110) / cpus.size();
                g.setColor(Color.BLACK);
                g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
                g.drawString("loom / " + versus.slug + ": " + metric.title, m * MAP_W + 20, 28);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
                for (int yi = 0; yi < cpus.size(); yi++) {
                    double cpu = cpus.get(cpus.size() - 1 - yi); // most CPU at the top
                    g.setColor(Color.BLACK);
                    g.drawString(ms(cpu), x0 - 40, y0 + yi * cellH + cellH / 2 + 5);
                    for (int xi = 0; xi < waits.size(); xi++) {
                        Spread s = ratio(rows, new Grid.Cell(waits.get(xi), cpu), metric, versus);
                        int x = x0 + xi * cellW;
                        int y = y0 + yi * cellH;
                        g.setColor(s.count() == 0 ? new Color(0xdddddd) : colour(s.median(), metric.higherIsBetter));
                        g.fillRect(x, y, cellW, cellH);
                        g.setColor(Color.WHITE);
                        g.setStroke(new BasicStroke(2f));
                        g.drawRect(x, y, cellW, cellH);
                        g.setColor(Color.BLACK);
                        if (s.count() > 0) {
                            centred(g, RunResult.fixed(s.median(), 2) + "x", x + cellW / 2, y + cellH / 2 - 2);
                            if (s.count() > 1 && s.min() != s.max())
                                centred(g, RunResult.fixed(s.min(), 2) + "-" + RunResult.fixed(s.max(), 2), x + cellW / 2, y + cellH / 2 + 14);
                            Optional<String> vs = bestPool(rows, new Grid.Cell(waits.get(xi), cpu), metric, versus);
                            if (vs.isPresent()) centred(g, "vs " + vs.get(), x + cellW / 2, y + cellH / 2 + 28);
                        } else {
                            centred(g, "undecided", x + cellW / 2, y + cellH / 2);
                        }
                    }
                }
                g.setColor(Color.BLACK);
                for (int xi = 0; xi < waits.size(); xi++) centred(g, waits.get(xi).toString(), x0 + xi * cellW + cellW / 2, y0 + cpus.size() * cellH + 18);
                centred(g, "blocking wait per request (ms)", x0 + waits.size() * cellW / 2, y0 + cpus.size() * cellH + 38);
                g.drawString("CPU ms", m * MAP_W + 20, y0 - 8);
                g.drawString(metric.higherIsBetter ? "green: loom higher (better)" : "green: loom lower (better)", m * MAP_W + 20, MAP_H - 12);
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile()); // also when nothing decided: every cell then says so
        return true;
    }

    /** Green where loom is better, red where worse, white at parity; full colour at 4x either way. */
    static Color colour(double ratio, boolean higherIsBetter) {
        double good = Math.log(ratio) / Math.log(4) * (higherIsBetter ? 1 : -1);
        double t = Math.max(-1, Math.min(1, good));
        int fade = (int) Math.round(255 * (1 - Math.abs(t)));
        return t >= 0 ? new Color(fade, 255 - (int) Math.round(80 * Math.abs(t)), fade) : new Color(255, fade, fade);
    }

    private static void centred(Graphics2D g, String text, int cx, int cy) {
        FontMetrics fm = g.getFontMetrics();
        g.drawString(text, cx - fm.stringWidth(text) / 2, cy + fm.getAscent() / 2 - 2);
    }
}
