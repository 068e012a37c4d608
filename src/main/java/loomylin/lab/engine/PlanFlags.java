package loomylin.lab.engine;

import java.nio.file.Path;
import java.util.Map;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.ServerJava;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.Whole;
import picocli.CommandLine.Option;

/**
 * The flags every experiment's command shares, declared once: a picocli mixin of each {@link ExperimentCommand}
 * ({@code @Mixin PlanFlags plan}), read once into {@link Options}, from which the experiment's {@link Runner.Plan} is made.
 */
public final class PlanFlags {
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results", converter = CommandLines.PathValue.class,
            description = "where the CSV, the report, provenance and servers.log go; a second run into it adds its rows under the next invocation")
    Path out;

    @Option(names = "--invocations", paramLabel = "N", defaultValue = "1", description = "run the whole plan N times, one after the other")
    @Whole(min = 1, max = 5)
    int invocations;

    @Option(names = "--java", paramLabel = "PATH", description = "the java of every JVM the experiment starts, e.g. a JDK 21's bin/java (default: the bench's own)")
    String java;

    /** The flags read once, with {@code rounds} of every cell; a {@code --java} is checked and chosen here, before any JVM starts. */
    public Options options(int rounds) {
        if (java != null) ServerJava.choose(java);
        return new Options(out.toAbsolutePath(), invocations, rounds);
    }

    /** Where an experiment writes, and how many invocations and rounds of its cells it makes. */
    public record Options(Path out, int invocations, int rounds) {
        /** The experiment's plan: these options and what only it knows. */
        public <R> Runner.Plan<R> plan(String name, String csv, Table<R> table, Map<String, String> tools, Map<String, String> cpuSets,
                                       String commandLine, String intro) {
            return new Runner.Plan<>(name, out, csv, table, invocations, rounds, tools, cpuSets, commandLine, intro);
        }
    }
}
