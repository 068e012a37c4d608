package loomylin.lab.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code targets DIR...}: the targets every listed result directory evaluated (its targets.csv), one row each,
 * leaving out the ones a directory could not evaluate (n/a), with the file each row comes from.
 */
final class TargetsTable implements Renderer {
    @Override
    public String usage() {
        return "DIR... (result directories holding a targets.csv, e.g. gfx/results)";
    }

    @Override
    public String render(Page page, List<String> dirs) {
        if (dirs.isEmpty()) throw new IllegalArgumentException("no result directory");
        StringBuilder out = new StringBuilder("| | what | measured: median (range) | each invocation's median | goal | verdict | from | file |\n|---|---|---|---|---|---|---|---|");
        for (String dir : dirs) {
            String file = dir + "/targets.csv";
            for (Map<String, String> t : page.files().csv(file)) {
                String result = t.getOrDefault("result", "");
                if (result.equalsIgnoreCase("n/a")) continue;
                out.append("\n| ").append(t.get("id")).append(" | ").append(cell(t.get("what"))).append(" | ")
                        .append(value(t)).append(" | ").append(invocations(t)).append(" | ").append(cell(t.get("goal"))).append(" | ").append(result)
                        .append(" | ").append(cell(t.get("detail"))).append(" | [").append(dir.substring(dir.lastIndexOf('/') + 1))
                        .append("](").append(page.link(file)).append(") |");
            }
        }
        return out.toString();
    }

    static String value(Map<String, String> t) {
        String median = t.getOrDefault("median", "");
        if (median.isBlank()) return "n/a";
        double m = Double.parseDouble(median);
        String min = t.getOrDefault("min", "");
        String max = t.getOrDefault("max", "");
        if (min.isBlank() || max.isBlank() || Double.parseDouble(min) == Double.parseDouble(max)) return number(m, m);
        return number(m, m) + " (" + number(Double.parseDouble(min), m) + "-" + number(Double.parseDouble(max), m) + ")";
    }

    /** Each invocation's median, written like the median; "one" when the file holds a single invocation. */
    static String invocations(Map<String, String> t) {
        String each = t.getOrDefault("invocation_medians", "");
        String median = t.getOrDefault("median", "");
        if (each.isBlank() || median.isBlank() || !each.contains(";")) return "one";
        double m = Double.parseDouble(median);
        return String.join(" / ", java.util.Arrays.stream(each.split(";")).map(v -> number(Double.parseDouble(v), m)).toList());
    }

    /** A value written with the decimals its median needs, so that a median and its range read alike. */
    static String number(double v, double median) {
        if (median == Math.rint(median) || Math.abs(median) >= 100) return String.format(Locale.ROOT, "%,.0f", v);
        if (Math.abs(median) >= 10) return String.format(Locale.ROOT, "%.1f", v);
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String cell(String text) {
        return text == null ? "" : text.replace("|", "\\|");
    }
}
