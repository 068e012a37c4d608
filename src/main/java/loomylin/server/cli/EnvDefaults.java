package loomylin.server.cli;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The environment as picocli's defaults: {@code --accept-queue} unset on the command line reads
 * {@code LOOMYLIN_ACCEPT_QUEUE} (trimmed; a blank one is not set), else its annotation's default. A switch is on
 * when its variable says {@code true}. A repeatable flag has no one variable, and {@code --help} none at all.
 * It remembers which options it filled, so that a mistake in one names the variable, not the flag.
 */
final class EnvDefaults implements IDefaultValueProvider {
    private final Map<String, String> env;
    private final Set<ArgSpec> filled = new HashSet<>();

    EnvDefaults(Map<String, String> env) {
        this.env = env;
    }

    /** The variable that sets {@code option}, or null when none does. */
    static String variable(OptionSpec option) {
        if (option.usageHelp() || option.isMultiValue()) return null;
        return Flags.envName(option.longestName().substring(2));
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || variable(option) == null) return null;
        String value = env.get(variable(option));
        if (value == null || value.isBlank()) return null;
        if (option.arity().max() == 0) {
            // a switch: on only for "true", as Flags.on reads it; anything else leaves its default
            if (!"true".equalsIgnoreCase(value.trim())) return null;
            value = "true";
        }
        filled.add(arg);
        return value.trim();
    }

    /** Where {@code option}'s value came from, as a message names it: its variable if this filled it, else the flag. */
    String source(OptionSpec option) {
        return filled.contains(option) ? variable(option) : option.longestName();
    }
}
