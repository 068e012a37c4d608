package loomylin.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import loomylin.bench.ConnectionsBench.Row;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What {@code bench --preset connections} writes: connections.csv (a row per client run), connections.md (the
 * table and the command) and connections.png, the seed's layout: a 3 x 2 grid against connections, one line per
 * client model (throughput, CPU time, CPU per request, peak RSS, peak VSZ, peak OS threads).
 */
final class ConnectionsReport {
    private static final int CELL_WIDTH = 600;
    private static final int CELL_HEIGHT = 400;
    private static final Color[] COLOURS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c)};

    private record Metric(String title, String unit, ToDoubleFunction<Row> value) {
    }

    private static final List<Metric> METRICS = List.of(
            new Metric("throughput", "req/s", Row::throughput),
            new Metric("client CPU time (measured period)", "s", Row::cpuS),
            new Metric("client CPU per request", "ms", Row::cpuPerRequestMs),
            new Metric("peak RSS", "MB", r -> r.peakRssKb() / 1024.0),
            new Metric("peak VSZ", "MB", r -> r.peakVszKb() / 1024.0),
            new Metric("peak OS threads", "threads", Row::peakThreads));

    private ConnectionsReport() {
    }

    static void write(Path dir, String commandLine, int durationS, List<Row> rows) throws IOException {
        StringBuilder csv = new StringBuilder("model,connections,completed,throughput_rps,cpu_s,cpu_per_request_ms,peak_rss_kb,peak_vsz_kb,peak_threads,lost,unfinished,error\n");
        for (Row r : rows)
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.2f,%.4f,%d,%d,%d,%d,%d,%s%n", r.model(), r.connections(), r.completed(),
                    r.throughput(), r.cpuS(), r.cpuPerRequestMs(), r.peakRssKb(), r.peakVszKb(), r.peakThreads(), r.lost(), r.unfinished(),
                    r.error() == null ? "" : "\"" + r.error().replace("\"", "'") + "\""));
        Files.writeString(dir.resolve("connections.csv"), csv);
        Files.writeString(dir.resolve("connections.md"), markdown(commandLine, durationS, rows));
        chart(dir.resolve("connections.png"), rows);
    }

    static String markdown(String commandLine, int durationS, List<Row> rows) {
        StringBuilder md = new StringBuilder("# Client models at connection scale\n\n`" + commandLine + "`: each client JVM holds N keep-alive "
                + "connections to the backend's /echo (1 s delay, 32 bytes) for " + durationS + " s; CPU is the client's during that period.\n\n"
                + "| model | connections | req/s | CPU s | CPU ms/req | peak RSS MB | peak VSZ MB | peak threads | lost | unfinished |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            if (r.error() != null) {
                md.append(String.format("| %s | %d | failed: %s |||||||| %n", r.model(), r.connections(), r.error().replace("|", "/")));
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.2f | %.3f | %d | %d | %d | %d | %d |%n", r.model(), r.connections(),
                    r.throughput(), r.cpuS(), r.cpuPerRequestMs(), r.peakRssKb() / 1024, r.peakVszKb() / 1024, r.peakThreads(), r.lost(), r.unfinished()));
        }
        return md.toString();
    }

    private static void chart(Path file, List<Row> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage grid = new BufferedImage(CELL_WIDTH * 3, CELL_HEIGHT * 2, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = grid.createGraphics();
        try {
            for (int i = 0; i < METRICS.size(); i++)
                g.drawImage(BitmapEncoder.getBufferedImage(chart(METRICS.get(i), rows)), (i % 3) * CELL_WIDTH, (i / 3) * CELL_HEIGHT, null);
        } finally {
            g.dispose();
        }
        ImageIO.write(grid, "png", file.toFile());
    }

    /** Connections on a linear axis, as in the seed's plot. */
    private static XYChart chart(Metric metric, List<Row> rows) {
        XYChart chart = new XYChartBuilder().width(CELL_WIDTH).height(CELL_HEIGHT).title(metric.title())
                .xAxisTitle("connections").yAxisTitle(metric.unit()).build();
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisDecimalPattern("#,##0");
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        boolean any = false;
        for (int m = 0; m < ConnectionsBench.MODELS.size(); m++) {
            String model = ConnectionsBench.MODELS.get(m);
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Row r : rows) {
                double v = metric.value().applyAsDouble(r);
                if (!r.model().equals(model) || r.error() != null || Double.isNaN(v)) continue;
                x.add((double) r.connections());
                y.add(v);
            }
            if (x.isEmpty()) continue;
            XYSeries s = chart.addSeries(model, x, y);
            s.setLineColor(COLOURS[m]);
            s.setMarkerColor(COLOURS[m]);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setLineStyle(new BasicStroke(2f));
            any = true;
        }
        if (!any) chart.addSeries("no data", List.of(0.0), List.of(0.0)).setMarker(SeriesMarkers.NONE);
        return chart;
    }
}
