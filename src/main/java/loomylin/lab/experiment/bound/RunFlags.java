package loomylin.lab.experiment.bound;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientTool;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.server.cli.Flags;

/**
 * The flags every preset here with a closed loop of its own reads alike ({@link AdmissionBench}, {@link DbBench}),
 * read once: the window (whole seconds), repeats, wrk and oha, and {@link PresetOptions}; with the open-files
 * limit checked for the closed loop's clients. Beside them, what both say alike of every run: where it ran and why
 * it failed.
 */
record RunFlags(PresetOptions common, Duration window, int repeat, ClientTool wrk, ClientTool oha) {
    /** Where both presets' servers and clients ran: unpinned, on every CPU, as their provenance says. */
    static final Map<String, String> CPU_SETS = Map.of("server", Provenance.ALL_CPUS, "client", Provenance.ALL_CPUS);
    /** A failed run's reason as its row keeps it: one line of at most this many characters. */
    static final int FAILURE_CHARS = 160;

    static RunFlags read(Flags flags, String preset, Duration window, int repeat, int closedClients) {
        Duration w = Bound.wholeSeconds(flags, preset, window);
        int r = flags.integer("repeat", repeat, 1, 20);
        PresetOptions common = PresetOptions.of(flags, Bound.HEAP);
        Bound.requireOpenFiles(closedClients, preset + "'s closed loop", "");
        return new RunFlags(common, w, r, PresetOptions.client(flags, Client.WRK), PresetOptions.client(flags, Client.OHA));
    }

    /** {@code why} cut to {@link #FAILURE_CHARS}: a server's or a tool's message can run to pages, a row keeps its start. */
    static String failure(String why) {
        return why.length() > FAILURE_CHARS ? why.substring(0, FAILURE_CHARS) + "..." : why;
    }

    String twin() {
        return common.twin();
    }

    String heap() {
        return common.heap();
    }

    int timeoutS() {
        return common.timeoutS();
    }

    Path dir() {
        return common.out();
    }
}
