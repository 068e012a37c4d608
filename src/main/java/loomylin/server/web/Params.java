package loomylin.server.web;

import java.util.List;

/**
 * Reads one query parameter strictly: a whole number (ASCII digits only, within a range), a yes/no, or one of
 * a fixed set of words; each given at most once.
 * Shared by both twins so that a bad request gets the same one-line answer from either.
 */
public final class Params {
    private Params() {
    }

    public static int integer(List<String> values, String name, int fallback, int min, int max) {
        if (values == null || values.isEmpty()) return fallback;
        if (values.size() > 1) throw new BadParameter(name + " given " + values.size() + " times; give it once");
        String raw = values.get(0);
        if (raw.isEmpty() || raw.length() > 10 || !raw.chars().allMatch(c -> c >= '0' && c <= '9'))
            throw new BadParameter(rangeText(name, min, max) + ", got '" + printable(raw) + "'");
        long value = Long.parseLong(raw);
        if (value < min || value > max)
            throw new BadParameter(rangeText(name, min, max) + ", got " + value);
        return (int) value;
    }

    /** A yes/no parameter: absent is false; given, it must be exactly {@code true} or {@code false}, once. */
    public static boolean bool(List<String> values, String name) {
        if (values == null || values.isEmpty()) return false;
        if (values.size() > 1) throw new BadParameter(name + " given " + values.size() + " times; give it once");
        return switch (values.get(0)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new BadParameter(name + " must be true or false, got '" + printable(values.get(0)) + "'");
        };
    }

    /** One of {@code choices}; absent is {@code fallback}; given, exactly one of them, once. */
    public static String choice(List<String> values, String name, String fallback, List<String> choices) {
        if (values == null || values.isEmpty()) return fallback;
        if (values.size() > 1) throw new BadParameter(name + " given " + values.size() + " times; give it once");
        String raw = values.get(0);
        if (!choices.contains(raw))
            throw new BadParameter(name + " must be one of " + String.join(", ", choices) + ", got '" + printable(raw) + "'");
        return raw;
    }

    private static String rangeText(String name, int min, int max) {
        return name + " must be a whole number from " + min + " to " + max;
    }

    /** Echoes user input safely: at most 40 characters, anything but printable ASCII shown as '?'. */
    public static String printable(String raw) {
        StringBuilder out = new StringBuilder();
        raw.codePoints().limit(40).forEach(c -> out.append(c >= 0x20 && c < 0x7f && c != '\'' ? (char) c : '?'));
        return raw.codePointCount(0, raw.length()) > 40 ? out + "..." : out.toString();
    }
}
