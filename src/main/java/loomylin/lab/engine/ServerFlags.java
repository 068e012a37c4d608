package loomylin.lab.engine;

import java.nio.file.Path;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.server.cli.Flags;
import loomylin.server.cli.Whole;
import loomylin.server.jetty.Twin;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The flags of every experiment that starts server JVMs, declared once: a picocli mixin, read once into {@link PresetOptions}. */
public final class ServerFlags {
    @Option(names = "--twin", paramLabel = "java|kotlin", defaultValue = "java", converter = TwinValue.class, description = "which implementation the servers run")
    Twin twin;

    @Option(names = "--heap", paramLabel = "SIZE", converter = HeapSize.class, description = "fixed, pre-touched heap of each server JVM, e.g. 512m (default: the experiment's)")
    String heap;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "20", description = "the load generator's per-request timeout in seconds; a request that takes longer counts as an error")
    @Whole(min = 1, max = 600)
    int timeoutS;

    /** The flags read once; {@code heap} where --heap is not given. */
    public PresetOptions options(String heap, Path out) {
        return new PresetOptions(twin.label(), this.heap == null ? heap : this.heap, timeoutS, out);
    }

    static final class TwinValue implements ITypeConverter<Twin> {
        @Override
        public Twin convert(String text) {
            return Twin.parse(text);
        }
    }

    /** A JVM heap size for -Xms/-Xmx, lower-cased: 512m, 2g. */
    static final class HeapSize implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            try {
                return Flags.heapSize(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
