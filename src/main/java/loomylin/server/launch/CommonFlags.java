package loomylin.server.launch;

import loomylin.server.cli.Whole;
import loomylin.server.web.Limits;
import picocli.CommandLine.Option;

/** The flags the servers' command and {@code backend} share, declared once (a picocli mixin of both). */
final class CommonFlags {
    @Option(names = "--host", paramLabel = "HOST", defaultValue = "0.0.0.0", description = "address to bind")
    String host;

    @Option(names = "--delay", paramLabel = "MS", defaultValue = "" + Limits.DELAY_DEFAULT,
            description = "the backend's delay per call, 0-" + Limits.DELAY_MAX + " (per request: ?delay=)")
    @Whole(min = 0, max = Limits.DELAY_MAX)
    int delayMs;

    @Option(names = "--grace-ms", paramLabel = "MS", defaultValue = "5000",
            description = "on stop, how long in-flight requests may take to finish; the process ends within this + 1 s")
    @Whole(min = 0, max = 600_000)
    int graceMs;
}
