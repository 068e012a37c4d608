package loomylin.lab.engine;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * An experiment's own command, {@code bench NAME [flags]}: an object whose picocli {@code @Option} fields are the
 * experiment's flags (those every experiment shares come from the engine's mixins, {@link PlanFlags} and the rest),
 * filled by {@code CommandLines} as every Loomylin command is read (LOOMYLIN_* variables, {@code --help}, one-line
 * mistakes), then read once into the typed options its experiment runs on. A flag it does not declare is refused.
 */
public interface ExperimentCommand {
    /** What the experiment measures and writes, in one paragraph: its {@code --help} and its line in {@code bench --help}. */
    String about();

    /** Runs the experiment on the flags read, {@code commandLine} as typed for its provenance; returns where it wrote. */
    Path run(String commandLine, PrintStream out);
}
