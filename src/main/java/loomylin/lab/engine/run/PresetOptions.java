package loomylin.lab.engine.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientTool;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.Twin;

/**
 * What every preset that starts its own server JVMs reads alike, read once: the twin, the servers' heap, the
 * load generator's per-request timeout in seconds and the output directory (absolute). The static readers
 * serve the flags several presets share: the pools and the client binaries.
 */
public record PresetOptions(String twin, String heap, int timeoutS, Path out) {

    public static PresetOptions of(Flags flags, String heap) {
        return new PresetOptions(flags.value("twin", Twin::parse).label(), flags.heap("heap", heap), flags.integer("timeout", 1, 600),
                Path.of(flags.get("out")).toAbsolutePath());
    }

    /** {@code --pools} as pool kinds, in order, each once; {@code fallback} when not given; a list of none is a usage error. */
    public static List<PoolKind> pools(Flags flags, List<String> fallback) {
        List<PoolKind> pools = new ArrayList<>();
        for (String p : flags.commaList("pools", fallback)) {
            PoolKind kind = UsageError.parsing(PoolKind::parse, p);
            if (!pools.contains(kind)) pools.add(kind);
        }
        if (pools.isEmpty()) throw new UsageError("--pools lists nothing");
        return pools;
    }

    /** {@code --pools} checked as {@link #pools} does, kept as the labels given (each once). */
    public static List<String> poolLabels(Flags flags, List<String> fallback) {
        return poolLabels(flags.commaList("pools", fallback));
    }

    /** {@code --pools}' items checked as {@link #pools} does, kept as the labels given (each once). */
    public static List<String> poolLabels(List<String> given) {
        List<String> labels = new ArrayList<>();
        for (String p : given) {
            UsageError.parsing(PoolKind::parse, p);
            if (!labels.contains(p)) labels.add(p);
        }
        if (labels.isEmpty()) throw new UsageError("--pools lists nothing");
        return labels;
    }

    /** A comma-separated value's items, blank ones dropped and each trimmed; {@code flag} lists nothing: a usage error. */
    public static List<String> items(String flag, String raw) {
        List<String> items = java.util.Arrays.stream(raw.split(",")).map(String::trim).filter(i -> !i.isEmpty()).toList();
        if (items.isEmpty()) throw new UsageError(flag + " lists nothing");
        return items;
    }

    /** The client binary {@code --oha}, {@code --wrk} or {@code --hey} names, else the one on PATH: found when a run starts ({@link ClientTool#locate}). */
    public static ClientTool client(Flags flags, Client client) {
        String given = flags.get(client.label());
        return new ClientTool(client, given == null ? null : Path.of(given));
    }
}
