package loomylin.admin;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line is a HELP, a TYPE or
 * a sample; every sample belongs to a family whose TYPE came first; label values are properly quoted; a
 * family is declared once; a histogram's buckets never decrease and its +Inf bucket equals its count.
 * Anything else fails with the line that broke the rule.
 */
final class PrometheusText {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\",?)*\\})? "
            + "([-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|Inf|NaN))( -?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** Series ("name{label="value",...}" with labels sorted) to value. */
    final Map<String, Double> series = new LinkedHashMap<>();
    /** Family name to type. */
    final Map<String, String> types = new HashMap<>();

    static PrometheusText parse(String text) {
        PrometheusText p = new PrometheusText();
        if (!text.endsWith("\n")) throw new AssertionError("the exposition must end with a newline");
        Map<String, Double> lastBucket = new HashMap<>();
        int n = 0;
        for (String line : text.split("\n")) {
            n++;
            if (line.isEmpty()) continue;
            Matcher m;
            if ((m = HELP.matcher(line)).matches()) continue;
            if ((m = TYPE.matcher(line)).matches()) {
                if (p.types.put(m.group(1), m.group(2)) != null) throw new AssertionError("line " + n + ": family declared twice: " + line);
                continue;
            }
            if (line.startsWith("#")) throw new AssertionError("line " + n + ": unknown comment: " + line);
            if (!(m = SAMPLE.matcher(line)).matches()) throw new AssertionError("line " + n + ": not a sample: " + line);
            String name = m.group(1);
            String family = family(name, p.types.keySet());
            if (family == null) throw new AssertionError("line " + n + ": sample before its TYPE: " + line);
            Map<String, String> labels = new java.util.TreeMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    if (labels.put(l.group(1), l.group(2)) != null) throw new AssertionError("line " + n + ": label repeated: " + line);
                }
            }
            double value = switch (m.group(3)) {
                case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(m.group(3));
            };
            String key = key(name, labels);
            if (p.series.put(key, value) != null) throw new AssertionError("line " + n + ": series repeated: " + line);
            if ("histogram".equals(p.types.get(family)) && name.endsWith("_bucket")) {
                if (!labels.containsKey("le")) throw new AssertionError("line " + n + ": bucket without le: " + line);
                Map<String, String> rest = new java.util.TreeMap<>(labels);
                rest.remove("le");
                String seriesOf = key(family, rest);
                Double before = lastBucket.put(seriesOf, value);
                if (before != null && value < before) throw new AssertionError("line " + n + ": bucket decreases: " + line);
            }
        }
        for (Map.Entry<String, Double> bucket : lastBucket.entrySet()) {
            String count = bucket.getKey().replaceFirst("^(" + NAME + ")", "$1_count");
            if (!bucket.getValue().equals(p.series.get(count)))
                throw new AssertionError("+Inf bucket " + bucket.getValue() + " differs from " + count + " " + p.series.get(count));
        }
        return p;
    }

    private static String family(String name, Set<String> declared) {
        if (declared.contains(name)) return name;
        for (String suffix : List.of("_total", "_bucket", "_count", "_sum", "_created", "_info")) {
            if (name.endsWith(suffix) && declared.contains(name.substring(0, name.length() - suffix.length())))
                return name.substring(0, name.length() - suffix.length());
        }
        // counters and info metrics are declared with their suffix in format 0.0.4
        return declared.contains(name) ? name : null;
    }

    static String key(String name, Map<String, String> labels) {
        if (labels.isEmpty()) return name;
        StringBuilder b = new StringBuilder(name).append('{');
        labels.forEach((k, v) -> b.append(k).append("=\"").append(v).append("\","));
        b.setLength(b.length() - 1);
        return b.append('}').toString();
    }

    /** The value of one series; labels as alternating names and values. */
    double value(String name, String... labels) {
        Map<String, String> l = new java.util.TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) l.put(labels[i], labels[i + 1]);
        Double v = series.get(key(name, l));
        if (v == null) throw new AssertionError("no series " + key(name, l));
        return v;
    }
}
