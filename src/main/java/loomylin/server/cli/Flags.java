package loomylin.server.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import loomylin.server.web.Params;

/**
 * The lab's command-line flags (the servers' command and {@code backend} read theirs with picocli, through
 * {@link CommandLines}; the lab's commands move there in a later step), each also settable by an environment variable: {@code --accept-queue 64} or
 * {@code LOOMYLIN_ACCEPT_QUEUE=64}. The flag wins over the variable, the variable over the default.
 * Both {@code --name value} and {@code --name=value} are read.
 */
public final class Flags {

    /**
     * One flag: its name without dashes, what its value looks like, its default (null = none), its help line,
     * and the environment variable the help names (the flag's own name in capitals unless given).
     */
    public record Flag(String name, String value, String fallback, String help, String env) {
        public Flag(String name, String value, String fallback, String help) {
            this(name, value, fallback, help, envName(name));
        }
    }

    private final Map<String, Flag> known = new LinkedHashMap<>();
    private final Map<String, List<String>> given = new LinkedHashMap<>();
    private final Map<String, String> env;

    private Flags(List<Flag> flags, Map<String, String> env) {
        flags.forEach(f -> known.put(f.name(), f));
        this.env = env;
    }

    public static String envName(String flag) {
        return "LOOMYLIN_" + flag.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** Parses args against the known flags; a flag without a value name ("help", "jfr") is a switch. */
    public static Flags parse(String[] args, List<Flag> flags, Map<String, String> env) {
        Flags parsed = new Flags(flags, env);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h")) arg = "--help";
            if (!arg.startsWith("--")) throw new UsageError("unexpected argument '" + Params.printable(arg) + "'");
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (!parsed.known.containsKey(name)) throw new UsageError("unknown flag --" + Params.printable(name));
            if (parsed.known.get(name).value() == null) {
                if (value != null) throw new UsageError("--" + name + " is a switch and takes no value");
                value = "true";
            } else if (value == null) {
                if (i + 1 >= args.length) throw new UsageError("--" + name + " needs a value");
                value = args[++i];
            }
            parsed.given.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return parsed;
    }

    public boolean help() {
        return given.containsKey("help");
    }

    /** Whether a switch is on: given, or its environment variable is "true". */
    public boolean on(String name) {
        return "true".equalsIgnoreCase(get(name));
    }

    /** The value: last given flag, else environment variable, else default (may be null). */
    public String get(String name) {
        Flag flag = flag(name);
        List<String> values = given.get(name);
        if (values != null) return values.get(values.size() - 1);
        String fromEnv = env.get(flag.env());
        if (fromEnv != null && !fromEnv.isBlank()) return fromEnv.trim();
        return flag.fallback();
    }

    /**
     * A comma-separated list (blank items dropped, each trimmed), or {@code fallback} when neither the flag nor its
     * variable is set; a usage error when it lists nothing.
     */
    public List<String> commaList(String name, List<String> fallback) {
        String raw = get(name);
        if (raw == null) return fallback;
        List<String> items = new ArrayList<>();
        for (String item : raw.split(",")) if (!item.isBlank()) items.add(item.trim());
        if (items.isEmpty()) throw new UsageError("--" + name + " lists nothing");
        return items;
    }

    /** Every value of a repeatable flag, in order. */
    public List<String> all(String name) {
        flag(name);
        return given.getOrDefault(name, List.of());
    }

    public int integer(String name, int min, int max) {
        String raw = get(name);
        String source = source(name);
        try {
            int value = Integer.parseInt(raw.trim());
            if (value >= min && value <= max) return value;
        } catch (NumberFormatException | NullPointerException ignored) {
            // reported below
        }
        throw new UsageError(source + " must be a whole number from " + min + " to " + max + ", got '" + Params.printable(String.valueOf(raw)) + "'");
    }

    /** The value as {@link #integer(String, int, int)} reads it, or {@code fallback} when neither the flag nor its variable is given. */
    public int integer(String name, int fallback, int min, int max) {
        return get(name) == null ? fallback : integer(name, min, max);
    }

    /** The value read by a domain parser; its {@link IllegalArgumentException} is a usage error ({@link UsageError#parsing}). */
    public <T> T value(String name, Function<String, ? extends T> parser) {
        return UsageError.parsing(parser, get(name));
    }

    /**
     * A JVM heap size for {@code -Xms}/{@code -Xmx} (512m, 2g; lower-cased), or {@code fallback} when the flag is
     * not given; anything else is a usage error.
     */
    public String heap(String name, String fallback) {
        String raw = get(name);
        if (raw == null) return fallback;
        try {
            return heapSize(raw);
        } catch (IllegalArgumentException e) {
            throw new UsageError(source(name) + " " + e.getMessage());
        }
    }

    /**
     * The one rule for a JVM heap size, for this table's flags and the lab's picocli ones alike: 512m or 2g,
     * lower-cased; anything else an {@link IllegalArgumentException} whose message ("must be a heap size...") follows
     * the flag's name.
     */
    public static String heapSize(String raw) {
        String h = raw.trim().toLowerCase(Locale.ROOT);
        if (!h.matches("\\d{1,6}[mg]")) throw new IllegalArgumentException("must be a heap size such as 512m or 2g, got '" + Params.printable(raw) + "'");
        return h;
    }

    /** Refuses, as a usage error, to run {@code what} where /proc is not there to read. */
    public static void requireProc(String what) {
        if (!java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/self/stat")))
            throw new UsageError(what + " measures processes through /proc, so it runs on Linux only");
    }

    /** The value as a {@link Durations duration} from {@code min} to {@code max}. */
    public Duration duration(String name, Duration min, Duration max) {
        return Durations.parse(source(name), get(name), min, max);
    }

    /** The value as {@link #duration(String, Duration, Duration)} reads it, or {@code fallback} when not given. */
    public Duration duration(String name, Duration fallback, Duration min, Duration max) {
        return get(name) == null ? fallback : duration(name, min, max);
    }

    /** Where the value came from, as messages name it: the flag if given, else its environment variable. */
    private String source(String name) {
        return given.containsKey(name) ? "--" + name : flag(name).env();
    }

    private Flag flag(String name) {
        Flag flag = known.get(name);
        if (flag == null) throw new IllegalArgumentException("no flag " + name); // a bug, not a user error
        return flag;
    }

    public Map<String, String> env() {
        return env;
    }

    /** The help text's flag table. */
    public static String describe(List<Flag> flags) {
        StringBuilder out = new StringBuilder();
        for (Flag f : flags) {
            String left = "  --" + f.name() + (f.value() == null ? "" : " " + f.value());
            out.append(String.format("%-34s %s%n", left, f.help()));
            String right = (f.fallback() == null ? "" : "default " + f.fallback() + "; ") + (f.name().equals("help") ? "" : "env " + f.env());
            if (!right.isEmpty()) out.append(String.format("%-34s (%s)%n", "", right));
        }
        return out.toString();
    }
}
