package loomylin.bench.bound;

import java.nio.file.Path;
import java.time.Duration;
import loomylin.bench.load.Client;
import loomylin.bench.load.ClientBinary;
import loomylin.cli.Flags;
import loomylin.cli.UsageError;

/**
 * The flags every preset here with a closed loop of its own reads alike ({@link AdmissionBench}, {@link DbBench}),
 * read once: the window (whole seconds), repeats, twin, heap, client timeout, wrk and oha, and the output
 * directory; with the open-files limit checked for the closed loop's clients.
 */
record RunFlags(Duration window, int repeat, String twin, String heap, int timeoutS, Path wrk, Path oha, Path dir) {
    static RunFlags read(Flags flags, String preset, Duration window, int repeat, int closedClients) {
        Duration w = flags.get("duration") == null ? window : flags.duration("duration", Duration.ofSeconds(1), Duration.ofMinutes(10));
        if (w.toMillis() % 1000 != 0) throw new UsageError("--duration for " + preset + " must be whole seconds such as 30s, got " + flags.get("duration"));
        int r = flags.get("repeat") == null ? repeat : flags.integer("repeat", 1, 20);
        String twin = flags.value("twin", loomylin.jetty.Twin::parse).label();
        String heap = flags.heap("heap", Bound.HEAP);
        int timeoutS = flags.integer("timeout", 1, 600);
        Bound.requireOpenFiles(closedClients, preset + "'s closed loop", "");
        Path wrk = ClientBinary.locate(Client.WRK, flags.get("wrk") == null ? null : Path.of(flags.get("wrk")));
        Path oha = ClientBinary.locate(Client.OHA, flags.get("oha") == null ? null : Path.of(flags.get("oha")));
        return new RunFlags(w, r, twin, heap, timeoutS, wrk, oha, Path.of(flags.get("out")).toAbsolutePath());
    }
}
