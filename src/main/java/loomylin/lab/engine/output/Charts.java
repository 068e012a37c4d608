package loomylin.lab.engine.output;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.RunResult;
import loomylin.server.jetty.PoolKind;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per endpoint and loop: {@code <endpoint-slug>.png} for closed-loop runs, a 3 x 2 grid against
 * concurrency (throughput, p50 and p99 latency on log axes, server CPU per request, peak RSS, peak threads);
 * {@code <endpoint-slug>-open.png} for open-loop runs, against the offered rate (p50, p99 and p99.9 on log
 * axes: the hockey stick; the achieved rate beside the offered one; CPU per request; peak threads). One line
 * per pool through the medians of the repeats, thin lines of its colour at their min and max. A pool keeps
 * its colour in every file.
 */
public final class Charts {
    public static final int CELL_WIDTH = 600;
    public static final int CELL_HEIGHT = 400;
    public static final int COLUMNS = 3;
    public static final int ROWS = 2;
    public static final int WIDTH = CELL_WIDTH * COLUMNS;
    public static final int HEIGHT = CELL_HEIGHT * ROWS;

    private static final Color[] PALETTE = {
            new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0x7f7f7f)};

    private record Metric(String title, String unit, boolean log, ToDoubleFunction<RunResult> value) {
    }

    private static final List<Metric> CLOSED = List.of(
            new Metric("throughput", "req/s", false, RunResult::rps),
            new Metric("p50 latency", "ms (log)", true, RunResult::p50Ms),
            new Metric("p99 latency", "ms (log)", true, RunResult::p99Ms),
            new Metric("server CPU per request", "ms", false, RunResult::cpuMsPerRequest),
            new Metric("peak RSS", "MB", false, r -> RunResult.mb(r.peakRssKb())),
            new Metric("peak threads", "OS threads", false, RunResult::threadsOrNaN));

    private static final List<Metric> OPEN = List.of(
            new Metric("p50 latency", "ms (log)", true, RunResult::p50Ms),
            new Metric("p99 latency", "ms (log)", true, RunResult::p99Ms),
            new Metric("p99.9 latency", "ms (log)", true, RunResult::p999Ms),
            new Metric("achieved vs offered rate", "req/s", false, RunResult::rps),
            new Metric("server CPU per request", "ms", false, RunResult::cpuMsPerRequest),
            new Metric("peak threads", "OS threads", false, RunResult::threadsOrNaN));

    private Charts() {
    }

    public static String fileName(Endpoint e, boolean open) {
        return e.slug() + (open ? "-open" : "") + ".png";
    }

    /**
     * Draws the endpoint's grid for one loop into dir; returns false (and writes nothing) when it has no finished run.
     * It draws only the runs the bench did not mark, as the tables do; where every run of the endpoint is marked (a
     * smoke run, a tiny test), it draws them all under titles that say so, so that a try of the tool still shows its
     * shape and no reader takes it for a result.
     */
    public static boolean write(Path dir, Endpoint endpoint, boolean open, List<PoolKind> pools, List<RunResult> rows) throws IOException {
        List<RunResult> of = rows.stream().filter(r -> r.spec().endpoint().equals(endpoint) && r.spec().open() == open).toList();
        List<RunResult> unmarked = of.stream().filter(r -> r.marks().isEmpty()).toList();
        boolean markedOnly = unmarked.isEmpty();
        List<Config> mine = Config.of(markedOnly ? of : unmarked);
        if (mine.isEmpty()) return false;
        System.setProperty("java.awt.headless", "true"); // before the first AWT class loads: no display needed
        BufferedImage grid = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = grid.createGraphics();
        try {
            List<Metric> metrics = open ? OPEN : CLOSED;
            for (int i = 0; i < metrics.size(); i++) {
                XYChart chart = chart(endpoint, open, metrics.get(i), pools, mine, markedOnly);
                g.drawImage(BitmapEncoder.getBufferedImage(chart), (i % COLUMNS) * CELL_WIDTH, (i / COLUMNS) * CELL_HEIGHT, null);
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(grid, "png", dir.resolve(fileName(endpoint, open)).toFile());
        return true;
    }

    /** The title a chart of marked runs alone carries after its own. */
    public static final String MARKED_ONLY = " (marked runs only: decides nothing)";

    private static XYChart chart(Endpoint endpoint, boolean open, Metric metric, List<PoolKind> pools, List<Config> configs, boolean markedOnly) {
        XYChart chart = new XYChartBuilder().width(CELL_WIDTH).height(CELL_HEIGHT)
                .title("/" + endpoint + ": " + metric.title() + (markedOnly ? MARKED_ONLY : ""))
                .xAxisTitle(open ? "offered req/s" : "concurrency").yAxisTitle(metric.unit()).build();
        List<Integer> levels = configs.stream().map(c -> open ? c.spec().rate() : c.spec().concurrency()).distinct().sorted().toList();
        var styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        // Closed-loop levels sit evenly spaced, labelled with their concurrency: 50, 500, 2000 read better so than
        // on a log axis. (The axis must end on levels: XChart draws no ticks at all when its ends get blank
        // labels.) Offered rates, and a single level, are drawn at their own values.
        boolean spaced = !open && levels.size() > 1;
        if (spaced) {
            styler.setXAxisMin(0.0);
            styler.setXAxisMax(levels.size() - 1.0);
            chart.setCustomXAxisTickLabelsFormatter(x -> {
                long i = Math.round(x);
                return Math.abs(x - i) < 1e-6 && i >= 0 && i < levels.size() ? levels.get((int) i).toString() : " ";
            });
        } else {
            styler.setXAxisMin(levels.size() > 1 ? 0.0 : levels.get(0) * 0.5);
            styler.setXAxisMax(levels.get(levels.size() - 1) * (levels.size() > 1 ? 1.05 : 1.5));
            styler.setXAxisDecimalPattern("#");
        }
        styler.setYAxisDecimalPattern("#,##0.##");
        if (metric.log()) styler.setYAxisLogarithmic(true);
        else styler.setYAxisMin(0.0); // from zero, so that noise does not look like a difference
        boolean any = false;
        for (PoolKind pool : pools) {
            List<Double> x = new ArrayList<>();
            List<Double> median = new ArrayList<>();
            List<Double> min = new ArrayList<>();
            List<Double> max = new ArrayList<>();
            for (int i = 0; i < levels.size(); i++) {
                for (Config c : configs) {
                    if (!c.spec().pool().equals(pool) || (open ? c.spec().rate() : c.spec().concurrency()) != levels.get(i)) continue;
                    Spread s = c.spread(metric.value());
                    if (s.count() == 0 || (metric.log() && s.min() <= 0)) continue;
                    x.add(spaced ? i : (double) levels.get(i));
                    median.add(s.median());
                    min.add(s.min());
                    max.add(s.max());
                }
            }
            if (x.isEmpty()) continue;
            Color colour = PALETTE[pools.indexOf(pool) % PALETTE.length];
            XYSeries s = chart.addSeries(pool.toString(), x, median);
            s.setLineColor(colour);
            s.setMarkerColor(colour);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setLineStyle(new BasicStroke(2f));
            if (!min.equals(median) || !max.equals(median)) {
                for (List<Double> edge : List.of(min, max)) {
                    XYSeries e = chart.addSeries(pool + (edge == min ? " min" : " max"), x, edge);
                    e.setLineColor(colour);
                    e.setMarker(SeriesMarkers.NONE);
                    e.setLineStyle(new BasicStroke(0.75f));
                    e.setShowInLegend(false);
                }
            }
            any = true;
        }
        if (open && metric.title().startsWith("achieved")) {
            List<Double> offered = levels.stream().map(Integer::doubleValue).toList();
            XYSeries diagonal = chart.addSeries("offered", offered, offered);
            diagonal.setLineColor(Color.GRAY);
            diagonal.setMarker(SeriesMarkers.NONE);
            diagonal.setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        if (!any) chart.addSeries("no data", List.of(spaced ? 0.0 : levels.get(0)), List.of(1.0)).setMarker(SeriesMarkers.NONE);
        return chart;
    }
}
