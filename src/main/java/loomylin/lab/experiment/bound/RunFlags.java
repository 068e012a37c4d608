package loomylin.lab.experiment.bound;

import java.nio.file.Path;
import java.time.Duration;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientTool;
import loomylin.lab.engine.run.PresetOptions;
import loomylin.server.cli.Flags;

/**
 * The flags every preset here with a closed loop of its own reads alike ({@link AdmissionBench}, {@link DbBench}),
 * read once: the window (whole seconds), repeats, wrk and oha, and {@link PresetOptions}; with the open-files
 * limit checked for the closed loop's clients.
 */
record RunFlags(PresetOptions common, Duration window, int repeat, ClientTool wrk, ClientTool oha) {
    static RunFlags read(Flags flags, String preset, Duration window, int repeat, int closedClients) {
        Duration w = Bound.wholeSeconds(flags, preset, window);
        int r = flags.integer("repeat", repeat, 1, 20);
        PresetOptions common = PresetOptions.of(flags, Bound.HEAP);
        Bound.requireOpenFiles(closedClients, preset + "'s closed loop", "");
        return new RunFlags(common, w, r, PresetOptions.client(flags, Client.WRK), PresetOptions.client(flags, Client.OHA));
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
