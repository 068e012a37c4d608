package loomylin.lab.engine.measure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): what {@link Metrics} writes and
 * {@code bench --metrics} reads. The Prometheus Java client writes this format but has no reader, so this one
 * checks every line and the rules between lines. A line is a {@code # HELP} or {@code # TYPE} comment, another
 * comment, a blank line, or a sample {@code name{label="value",...} value [timestamp]}; the text ends with a
 * newline; a family is typed at most once and before its first sample; a series (name and label set) appears
 * once; a histogram's buckets never decrease and its {@code +Inf} bucket equals its {@code _count}. Anything
 * else fails with an IllegalArgumentException naming the line.
 */
public final class PrometheusText {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern TIMESTAMP = Pattern.compile("-?\\d{1,19}");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
    /** What a family's sample names may add to the family's name (counters, histograms, summaries, info). */
    private static final List<String> SUFFIXES = List.of("_total", "_bucket", "_count", "_sum", "_created", "_info");

    /** One sample line; {@code labels} in the order written. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;
    private final Map<String, String> types;

    private PrometheusText(List<Sample> samples, Map<String, String> types) {
        this.samples = samples;
        this.types = types;
    }

    /** Parses a whole exposition; throws IllegalArgumentException naming the first bad line. */
    public static PrometheusText parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) throw new IllegalArgumentException("the exposition does not end with a newline");
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        Set<String> sampledFamilies = new HashSet<>();
        Set<String> series = new HashSet<>();
        Histograms histograms = new Histograms();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            try {
                if (line.isBlank()) continue;
                if (line.startsWith("#")) {
                    comment(line, types, sampledFamilies);
                    continue;
                }
                Sample s = sample(line);
                String family = family(s.name(), types.keySet());
                sampledFamilies.add(family);
                if (!series.add(key(s.name(), s.labels()))) throw new IllegalArgumentException("series repeated");
                if ("histogram".equals(types.get(family))) histograms.add(family, s);
                samples.add(s);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage() + ": "
                        + (line.length() > 80 ? line.substring(0, 80) + "..." : line));
            }
        }
        histograms.check();
        return new PrometheusText(List.copyOf(samples), Collections.unmodifiableMap(types));
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The type a {@code # TYPE} line declared for a metric family, if any. */
    public Optional<String> type(String family) {
        return Optional.ofNullable(types.get(family));
    }

    /** Every family a {@code # TYPE} line declared, with its type, in the order declared. */
    public Map<String, String> types() {
        return types;
    }

    /** Names of the samples no {@code # TYPE} line covers (untyped: the format allows them, our /metrics has none). */
    public List<String> untyped() {
        Set<String> out = new LinkedHashSet<>();
        for (Sample s : samples) if (!types.containsKey(family(s.name(), types.keySet()))) out.add(s.name());
        return List.copyOf(out);
    }

    /** The value of the first sample with this name whose labels include {@code labels}. */
    public Optional<Double> value(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .map(Sample::value).findFirst();
    }

    public Optional<Double> value(String name) {
        return value(name, Map.of());
    }

    /**
     * The value of the series with exactly these labels, given as alternating names and values; an
     * IllegalArgumentException naming the series when there is none.
     */
    public double series(String name, String... labels) {
        if (labels.length % 2 != 0) throw new IllegalArgumentException("labels come in name, value pairs");
        Map<String, String> wanted = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) wanted.put(labels[i], labels[i + 1]);
        return samples.stream().filter(s -> s.name().equals(name) && new TreeMap<>(s.labels()).equals(wanted))
                .map(Sample::value).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no series " + key(name, wanted)));
    }

    /** Every sample of one name. */
    public List<Sample> all(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** A sample name's family: the name if declared, else the declared name its suffix extends, else the name. */
    private static String family(String name, Set<String> declared) {
        if (declared.contains(name)) return name;
        for (String suffix : SUFFIXES) {
            if (!name.endsWith(suffix)) continue;
            String base = name.substring(0, name.length() - suffix.length());
            if (declared.contains(base)) return base;
        }
        return name;
    }

    /** {@code name{a="1",b="2"}} with the labels sorted: one key per series, whatever order they were written in. */
    private static String key(String name, Map<String, String> labels) {
        if (labels.isEmpty()) return name;
        StringBuilder b = new StringBuilder(name).append('{');
        new TreeMap<>(labels).forEach((k, v) -> b.append(k).append("=\"").append(v).append("\","));
        b.setLength(b.length() - 1);
        return b.append('}').toString();
    }

    private static void comment(String line, Map<String, String> types, Set<String> sampledFamilies) {
        String[] words = line.substring(1).strip().split("[ \t]+", 3);
        if (words[0].equals("HELP")) {
            if (words.length < 2 || !NAME.matcher(words[1]).matches()) throw new IllegalArgumentException("HELP without a metric name");
        } else if (words[0].equals("TYPE")) {
            if (words.length != 3 || !NAME.matcher(words[1]).matches() || !TYPES.contains(words[2]))
                throw new IllegalArgumentException("TYPE must be a metric name and one of " + TYPES);
            if (types.putIfAbsent(words[1], words[2]) != null) throw new IllegalArgumentException("second TYPE for " + words[1]);
            if (sampledFamilies.contains(words[1])) throw new IllegalArgumentException("TYPE after samples of " + words[1]);
        }
        // any other comment is allowed and ignored
    }

    private static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && (Character.isLetterOrDigit(line.charAt(i)) || line.charAt(i) == '_' || line.charAt(i) == ':')) i++;
        String name = line.substring(0, i);
        if (!NAME.matcher(name).matches()) throw new IllegalArgumentException("no metric name");
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') i = labels(line, i + 1, labels);
        String rest = line.substring(i);
        if (!rest.startsWith(" ") && !rest.startsWith("\t")) throw new IllegalArgumentException("no space before the value");
        String[] fields = rest.strip().split("[ \t]+");
        if (fields.length > 2 || fields[0].isEmpty()) throw new IllegalArgumentException("expected a value and an optional timestamp");
        if (fields.length == 2 && !TIMESTAMP.matcher(fields[1]).matches()) throw new IllegalArgumentException("bad timestamp");
        return new Sample(name, Collections.unmodifiableMap(labels), number(fields[0]));
    }

    /** Reads {@code label="value",...}} from {@code i}; returns the index after the closing brace. */
    private static int labels(String line, int i, Map<String, String> labels) {
        while (true) {
            if (i < line.length() && line.charAt(i) == '}') return i + 1;
            int eq = line.indexOf('=', i);
            if (eq < 0) throw new IllegalArgumentException("label without '='");
            String label = line.substring(i, eq).strip();
            if (!LABEL.matcher(label).matches()) throw new IllegalArgumentException("bad label name '" + label + "'");
            if (eq + 1 >= line.length() || line.charAt(eq + 1) != '"') throw new IllegalArgumentException("label value not quoted");
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; ; j++) {
                if (j >= line.length()) throw new IllegalArgumentException("unterminated label value");
                char c = line.charAt(j);
                if (c == '"') break;
                if (c == '\\') {
                    if (++j >= line.length()) throw new IllegalArgumentException("unterminated escape");
                    char e = line.charAt(j);
                    switch (e) {
                        case '\\', '"' -> value.append(e);
                        case 'n' -> value.append('\n');
                        default -> throw new IllegalArgumentException("bad escape \\" + e);
                    }
                } else {
                    value.append(c);
                }
            }
            if (labels.put(label, value.toString()) != null) throw new IllegalArgumentException("label " + label + " twice");
            i = j + 1;
            if (i < line.length() && line.charAt(i) == ',') i++;
            else if (i >= line.length() || line.charAt(i) != '}') throw new IllegalArgumentException("expected ',' or '}' after a label");
        }
    }

    private static double number(String text) {
        return switch (text) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                if (!text.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?"))
                    throw new IllegalArgumentException("bad value '" + text + "'");
                yield Double.parseDouble(text);
            }
        };
    }

    /** A histogram's rules, per series (its labels without {@code le}): buckets never decrease, {@code +Inf} equals {@code _count}. */
    private static final class Histograms {
        private final Map<String, Double> lastBucket = new LinkedHashMap<>();
        private final Map<String, Double> infBucket = new HashMap<>();
        private final Map<String, Double> counts = new HashMap<>();

        void add(String family, Sample s) {
            Map<String, String> rest = new TreeMap<>(s.labels());
            if (s.name().equals(family + "_bucket")) {
                String le = rest.remove("le");
                if (le == null) throw new IllegalArgumentException("bucket without le");
                String series = key(family, rest);
                Double before = lastBucket.put(series, s.value());
                if (before != null && s.value() < before) throw new IllegalArgumentException("bucket decreases");
                if (le.equals("+Inf")) infBucket.put(series, s.value());
            } else if (s.name().equals(family + "_count")) {
                counts.put(key(family, rest), s.value());
            }
        }

        void check() {
            for (String series : lastBucket.keySet()) {
                Double inf = infBucket.get(series);
                if (inf == null) throw new IllegalArgumentException("histogram " + series + " has no +Inf bucket");
                if (!inf.equals(counts.get(series)))
                    throw new IllegalArgumentException("histogram " + series + ": +Inf bucket " + inf + " differs from _count " + counts.get(series));
            }
        }
    }
}
