package loomylin.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), as {@code /metrics} writes it.
 * The Prometheus Java client writes this format but has no reader, so this one checks every line: a
 * {@code # HELP} or {@code # TYPE} comment, another comment, a blank line, or a sample
 * {@code name{label="value",...} value [timestamp]}. Anything else fails with the line's number.
 */
final class PrometheusText {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern TIMESTAMP = Pattern.compile("-?\\d{1,19}");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    /** One sample line. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;
    private final Map<String, String> types;

    private PrometheusText(List<Sample> samples, Map<String, String> types) {
        this.samples = samples;
        this.types = types;
    }

    /** Parses a whole exposition; throws IllegalArgumentException naming the first bad line. */
    static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            try {
                if (line.isBlank()) continue;
                if (line.startsWith("#")) comment(line, types);
                else samples.add(sample(line));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage() + ": "
                        + (line.length() > 80 ? line.substring(0, 80) + "..." : line));
            }
        }
        return new PrometheusText(List.copyOf(samples), Map.copyOf(types));
    }

    List<Sample> samples() {
        return samples;
    }

    /** The type a {@code # TYPE} line declared for a metric family, if any. */
    Optional<String> type(String family) {
        return Optional.ofNullable(types.get(family));
    }

    /** The value of the first sample with this name whose labels include {@code labels}. */
    Optional<Double> value(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .map(Sample::value).findFirst();
    }

    Optional<Double> value(String name) {
        return value(name, Map.of());
    }

    /** Every sample of one name. */
    List<Sample> all(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    private static void comment(String line, Map<String, String> types) {
        String[] words = line.substring(1).strip().split("[ \t]+", 3);
        if (words[0].equals("HELP")) {
            if (words.length < 2 || !NAME.matcher(words[1]).matches()) throw new IllegalArgumentException("HELP without a metric name");
        } else if (words[0].equals("TYPE")) {
            if (words.length != 3 || !NAME.matcher(words[1]).matches() || !TYPES.contains(words[2]))
                throw new IllegalArgumentException("TYPE must be a metric name and one of " + TYPES);
            if (types.putIfAbsent(words[1], words[2]) != null) throw new IllegalArgumentException("second TYPE for " + words[1]);
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
        return new Sample(name, Map.copyOf(labels), number(fields[0]));
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
}
