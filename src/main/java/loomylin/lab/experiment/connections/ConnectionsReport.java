package loomylin.lab.experiment.connections;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.result.Column;
import loomylin.lab.engine.result.Table;
import loomylin.lab.experiment.connections.ConnectionsBench.Row;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.output.Spread;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What {@code bench --preset connections} writes besides the runner's connections.csv (a row per client run):
 * connections.md (the table of medians with their range, and the command) and connections.png, the seed's layout: a 3 x 2 grid against
 * connections, one line per client model through the medians (throughput, CPU time, CPU per request, peak RSS,
 * peak VSZ, peak OS threads).
 */
public final class ConnectionsReport {
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

    public static final String REPORT = "connections.md";
    /** connections.csv: a row per client run, its invocation first (the committed file, written before, has none). */
    static final Table<Row> TABLE = Table.written(List.of(Column.integer(Invocations.COLUMN, Row::invocation), Column.text("model", Row::model), Column.integer("connections", Row::connections),
            Column.integer("repeat", Row::repeat), Column.whole("completed", Row::completed), Column.fixed("throughput_rps", 1, Row::throughput),
            Column.fixed("cpu_s", 2, Row::cpuS), Column.fixed("cpu_per_request_ms", 4, Row::cpuPerRequestMs), Column.whole("peak_rss_kb", Row::peakRssKb),
            Column.whole("peak_vsz_kb", Row::peakVszKb), Column.integer("peak_threads", Row::peakThreads), Column.whole("lost", Row::lost),
            Column.whole("unfinished", Row::unfinished), Column.quoted("error", Row::error)));

    private ConnectionsReport() {
    }

    /** connections.md and connections.png from the runs of {@code invocation}; the runner writes connections.csv as they end. */
    public static void write(Path dir, int invocation, Provenance provenance, int durationS, List<Row> rows) throws IOException {
        List<Cell> cells = cells(rows);
        Files.writeString(dir.resolve(REPORT), markdown(provenance.markdown() + Invocations.oneInvocationNote(invocation, ConnectionsBench.CSV), durationS, cells));
        chart(dir.resolve("connections.png"), cells);
    }

    private static String markdown(String provenance, int durationS, List<Cell> cells) {
        StringBuilder md = new StringBuilder("# Client models at connection scale\n\n" + provenance + "Each client JVM holds N keep-alive "
                + "connections to the backend's /echo (1 s delay, 32 bytes) for " + durationS + " s; CPU is the client's during that period. "
                + "Median (min-max) of the runs; lost and unfinished are summed over them.\n\n"
                + "| model | connections | runs | req/s | CPU s | CPU ms/req | peak RSS MB | peak VSZ MB | peak threads | lost | unfinished |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            List<Row> ok = c.ok();
            String runs = ok.size() == c.runs().size() ? Integer.toString(ok.size()) : ok.size() + " of " + c.runs().size();
            if (ok.isEmpty()) {
                String error = c.runs().get(c.runs().size() - 1).error().replace("|", "/");
                md.append(String.format("| %s | %d | %s | failed: %s ||||||| %n", c.model(), c.connections(), runs, error));
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %d | %d |%n", c.model(), c.connections(), runs,
                    spread(ok, Row::throughput).text(1), spread(ok, Row::cpuS).text(2), spread(ok, Row::cpuPerRequestMs).text(3),
                    spread(ok, r -> r.peakRssKb() / 1024.0).text(0), spread(ok, r -> r.peakVszKb() / 1024.0).text(0),
                    spread(ok, Row::peakThreads).text(0), ok.stream().mapToLong(Row::lost).sum(), ok.stream().mapToLong(Row::unfinished).sum()));
        }
        return md.toString();
    }

    /** The runs of one model at one level. */
    private record Cell(String model, int connections, List<Row> runs) {
        /** The runs that finished; their figures are the ones to summarise. */
        List<Row> ok() {
            return runs.stream().filter(r -> r.error() == null).toList();
        }
    }

    /** Model by model, each model's levels in the order they first appear. */
    private static List<Cell> cells(List<Row> rows) {
        Map<String, Cell> cells = new LinkedHashMap<>();
        for (String model : ConnectionsBench.MODELS)
            for (Row r : rows)
                if (r.model().equals(model))
                    cells.computeIfAbsent(model + " " + r.connections(), k -> new Cell(model, r.connections(), new ArrayList<>())).runs().add(r);
        return List.copyOf(cells.values());
    }

    private static Spread spread(List<Row> runs, ToDoubleFunction<Row> value) {
        return Spread.of(runs.stream().map(value::applyAsDouble).toList());
    }

    private static void chart(Path file, List<Cell> cells) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage grid = new BufferedImage(CELL_WIDTH * 3, CELL_HEIGHT * 2, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = grid.createGraphics();
        try {
            for (int i = 0; i < METRICS.size(); i++)
                g.drawImage(BitmapEncoder.getBufferedImage(chart(METRICS.get(i), cells)), (i % 3) * CELL_WIDTH, (i / 3) * CELL_HEIGHT, null);
        } finally {
            g.dispose();
        }
        ImageIO.write(grid, "png", file.toFile());
    }

    /** Connections on a linear axis, as in the seed's plot. */
    private static XYChart chart(Metric metric, List<Cell> cells) {
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
            for (Cell c : cells) {
                if (!c.model().equals(model)) continue;
                double v = spread(c.ok(), metric.value()).median();
                if (Double.isNaN(v)) continue;
                x.add((double) c.connections());
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
