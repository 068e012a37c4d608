package loomylin.server.cli;

import java.lang.reflect.Field;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import loomylin.server.web.Params;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A command's flags read by picocli into its options object, whose fields carry them ({@code @Option}, with a
 * {@link Whole} range where the value is a whole number), the way every Loomylin command reads flags:
 * {@code --name value} or {@code --name=value}, the last one given wins, each flag also settable by its
 * {@code LOOMYLIN_*} variable ({@link EnvDefaults}; the flag wins), {@code -h}/{@code --help} on every command,
 * and every mistake one line: a {@link UsageError}, which {@link Guard} prints with exit status 2. picocli never
 * prints here: its usage-and-message answer to a mistake is replaced by that line, and the help is
 * {@link #flagTable}, in the same layout as {@link Flags#describe}.
 *
 * <p>A converter whose value is wrong throws one of two things: an {@link IllegalArgumentException} (or a
 * {@link UsageError}) whose message is the whole line, as the domain's parsers do ({@code PoolKind.parse},
 * {@code Twin.parse}), or a {@link TypeConversionException} whose message lacks its subject ("is not a path: 'x'"),
 * to which the flag, or the variable the value came from, is prefixed.
 */
public final class CommandLines {
    private CommandLines() {
    }

    /** Whole numbers as {@link Flags#integer} reads them: surrounding spaces allowed, no sign of plus, no hex. */
    private static final ITypeConverter<Integer> WHOLE = text -> Integer.parseInt(text.trim());

    /**
     * Fills {@code options} from {@code args}, then from {@code env} for the flags not given; true when the user
     * asked for {@code --help} (the caller prints it), false when {@code options} is filled and checked.
     */
    public static boolean parse(Object options, String[] args, Map<String, String> env) {
        List<String> given = List.of(args);
        // picocli reads a lone "--" as the end of the options; Loomylin's commands take no other arguments, so it is a mistake
        if (given.contains("--")) throw new UsageError("unknown flag --");
        EnvDefaults defaults = new EnvDefaults(env);
        CommandLine line = commandLine(options);
        line.setDefaultValueProvider(defaults);
        try {
            line.parseArgs(args);
        } catch (ParameterException e) {
            // asking for the help wins over a wrong value beside it, as it did before picocli
            if (given.contains("--help") || given.contains("-h")) return true;
            throw new UsageError(oneLine(e, defaults));
        }
        if (line.isUsageHelpRequested()) return true;
        for (OptionSpec option : line.getCommandSpec().options()) {
            Whole range = range(option);
            if (range == null || option.getValue() == null) continue;
            int value = option.<Integer>getValue();
            if (value < range.min() || value > range.max()) {
                List<String> written = option.originalStringValues();
                throw new UsageError(wholeLine(defaults.source(option), range, written.isEmpty() ? String.valueOf(value) : written.get(written.size() - 1)));
            }
        }
        return false;
    }

    /** Every flag of {@code options}' command, {@code --help} last: the name as typed, e.g. {@code --accept-queue}. */
    public static List<String> flagNames(Object options) {
        return commandLine(options).getCommandSpec().options().stream().map(OptionSpec::longestName).toList();
    }

    /** The help's flag table: each flag, its value, its help line, then its default and its variable. */
    public static String flagTable(Object options) {
        StringBuilder out = new StringBuilder();
        for (OptionSpec o : commandLine(options).getCommandSpec().options()) {
            String left = "  " + o.longestName() + (o.arity().max() == 0 ? "" : " " + o.paramLabel());
            out.append(String.format("%-34s %s%n", left, String.join(" ", o.description())));
            String variable = EnvDefaults.variable(o);
            String right = (o.defaultValue() == null ? "" : "default " + o.defaultValue() + (variable == null ? "" : "; "))
                    + (variable == null ? "" : "env " + variable);
            if (!right.isEmpty()) out.append(String.format("%-34s (%s)%n", "", right));
        }
        return out.toString();
    }

    /** picocli set to read as {@link Flags} did: no @-files, no ${...} in values, repeats allowed, --help added. */
    private static CommandLine commandLine(Object options) {
        CommandSpec spec = CommandSpec.forAnnotatedObject(options);
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("print this help and exit").build());
        CommandLine line = new CommandLine(spec);
        line.setExpandAtFiles(false);
        line.setInterpolateVariables(false);
        line.setOverwrittenOptionsAllowed(true);
        line.setToggleBooleanFlags(false);
        line.registerConverter(Integer.class, WHOLE);
        line.registerConverter(int.class, WHOLE);
        return line;
    }

    /** picocli's exception as the one line Loomylin prints, naming the flag, or the variable the value came from. */
    static String oneLine(ParameterException e, EnvDefaults defaults) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().get(0);
            return arg.startsWith("--") ? "unknown flag " + Params.printable(arg.split("=", 2)[0]) : "unexpected argument '" + Params.printable(arg) + "'";
        }
        if (e instanceof MissingParameterException m && !m.getMissing().isEmpty() && m.getMissing().get(0) instanceof OptionSpec o)
            return o.longestName() + " needs a value";
        if (!(e.getArgSpec() instanceof OptionSpec option)) return firstLine(e.getMessage());
        if (option.arity().max() == 0) return option.longestName() + " is a switch and takes no value";
        Whole range = range(option);
        if (range != null) return wholeLine(defaults.source(option), range, e.getValue());
        Throwable cause = e.getCause();
        if (cause instanceof TypeConversionException) return defaults.source(option) + " " + cause.getMessage();
        if (cause instanceof IllegalArgumentException || cause instanceof UsageError) return cause.getMessage();
        return firstLine(e.getMessage());
    }

    private static String wholeLine(String source, Whole range, String given) {
        return source + " must be a whole number from " + range.min() + " to " + range.max() + ", got '" + Params.printable(String.valueOf(given)) + "'";
    }

    /** A path flag's value: {@code --data-dir is not a path: '...'} when the file system cannot take it. */
    public static final class PathValue implements ITypeConverter<Path> {
        @Override
        public Path convert(String text) {
            try {
                return Path.of(text);
            } catch (InvalidPathException e) {
                throw new TypeConversionException("is not a path: '" + Params.printable(text) + "'");
            }
        }
    }

    private static Whole range(OptionSpec option) {
        return option.userObject() instanceof Field field ? field.getAnnotation(Whole.class) : null;
    }

    private static String firstLine(String message) {
        return message == null ? "wrong command line" : message.lines().findFirst().orElse("").strip();
    }
}
