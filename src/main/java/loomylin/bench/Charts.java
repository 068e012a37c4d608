package loomylin.bench;

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
import loomylin.jetty.PoolKind;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per endpoint, {@code <endpoint-slug>.png}: a 3 x 2 grid of charts against concurrency, one line
 * per pool: throughput, p50 and p99 latency, server CPU time, peak RSS, peak threads.
 * A pool keeps its colour in every file.
 */
final class Charts {
    static final int CELL_WIDTH = 600;
    static final int CELL_HEIGHT = 400;
    static final int COLUMNS = 3;
    static final int ROWS = 2;
    static final int WIDTH = CELL_WIDTH * COLUMNS;
    static final int HEIGHT = CELL_HEIGHT * ROWS;

    private static final Color[] PALETTE = {
            new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0x7f7f7f)};

    private record Metric(String title, String unit, ToDoubleFunction<RunResult> value) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("throughput", "req/s", RunResult::rps),
            new Metric("p50 latency", "ms", RunResult::p50Ms),
            new Metric("p99 latency", "ms", RunResult::p99Ms),
            new Metric("server CPU time", "s", RunResult::cpuS),
            new Metric("peak RSS", "MB", r -> RunResult.mb(r.peakRssKb())),
            new Metric("peak threads", "OS threads", r -> r.peakThreads() < 0 ? Double.NaN : r.peakThreads()));

    private Charts() {
    }

    static String fileName(Endpoint e) {
        return e.slug() + ".png";
    }

    /** Draws the endpoint's grid into dir; returns false (and writes nothing) when it has no finished run. */
    static boolean write(Path dir, Endpoint endpoint, List<PoolKind> pools, List<RunResult> rows) throws IOException {
        List<RunResult> mine = rows.stream().filter(r -> r.spec().endpoint().equals(endpoint)).toList();
        if (mine.isEmpty()) return false;
        System.setProperty("java.awt.headless", "true"); // before the first AWT class loads: no display needed
        BufferedImage grid = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = grid.createGraphics();
        try {
            for (int i = 0; i < METRICS.size(); i++) {
                XYChart chart = chart(endpoint, METRICS.get(i), pools, mine);
                g.drawImage(BitmapEncoder.getBufferedImage(chart), (i % COLUMNS) * CELL_WIDTH, (i / COLUMNS) * CELL_HEIGHT, null);
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(grid, "png", dir.resolve(fileName(endpoint)).toFile());
        return true;
    }

    private static XYChart chart(Endpoint endpoint, Metric metric, List<PoolKind> pools, List<RunResult> rows) {
        XYChart chart = new XYChartBuilder().width(CELL_WIDTH).height(CELL_HEIGHT)
                .title("/" + endpoint + ": " + metric.title())
                .xAxisTitle("concurrency").yAxisTitle(metric.unit()).build();
        List<Integer> levels = rows.stream().map(r -> r.spec().concurrency()).distinct().sorted().toList();
        var styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        // Several levels sit evenly spaced, labelled with their concurrency: 50, 500, 2000 read better so than on
        // a log axis, whose labels would be the powers of ten between them. (The axis must end on levels: XChart
        // draws no ticks at all when its ends get blank labels.) A single level is drawn at its own value.
        boolean spaced = levels.size() > 1;
        if (spaced) {
            styler.setXAxisMin(0.0);
            styler.setXAxisMax(levels.size() - 1.0);
            chart.setCustomXAxisTickLabelsFormatter(x -> {
                long i = Math.round(x);
                return Math.abs(x - i) < 1e-6 && i >= 0 && i < levels.size() ? levels.get((int) i).toString() : " ";
            });
        } else {
            styler.setXAxisMin(levels.get(0) * 0.5);
            styler.setXAxisMax(levels.get(0) * 1.5);
            styler.setXAxisDecimalPattern("#");
        }
        styler.setYAxisDecimalPattern("#,##0.##");
        styler.setYAxisMin(0.0); // from zero, so that noise does not look like a difference
        boolean any = false;
        for (PoolKind pool : pools) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < levels.size(); i++) {
                for (RunResult r : rows) {
                    if (!r.spec().pool().equals(pool) || r.spec().concurrency() != levels.get(i)) continue;
                    double v = metric.value().applyAsDouble(r);
                    if (Double.isNaN(v)) continue;
                    x.add(spaced ? i : (double) levels.get(i));
                    y.add(v);
                }
            }
            if (x.isEmpty()) continue;
            XYSeries s = chart.addSeries(pool.toString(), x, y);
            Color colour = PALETTE[pools.indexOf(pool) % PALETTE.length];
            s.setLineColor(colour);
            s.setMarkerColor(colour);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setLineStyle(new BasicStroke(2f));
            any = true;
        }
        if (!any) chart.addSeries("no data", List.of(spaced ? 0.0 : levels.get(0)), List.of(0.0)).setMarker(SeriesMarkers.NONE);
        return chart;
    }
}
