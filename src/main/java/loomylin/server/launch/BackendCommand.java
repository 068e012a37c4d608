package loomylin.server.launch;

import java.util.List;
import java.util.Locale;
import loomylin.server.backend.Backend;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Limits;
import loomylin.server.web.Params;

/** {@code java -jar loomylin.jar backend [flags]}: the backend alone, e.g. on another host. */
public final class BackendCommand {
    private BackendCommand() {
    }

    static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("port", "PORT", "7003", "port the backend listens on"),
            new Flags.Flag("host", "HOST", "0.0.0.0", "address to bind"),
            new Flags.Flag("delay", "MS", String.valueOf(Limits.DELAY_DEFAULT), "default delay of each answer, 0-" + Limits.DELAY_MAX + " (per request: ?delay=)"),
            new Flags.Flag("fault", "none|error|malformed|close", "none", "misbehave on purpose: answer 500, cut JSON, or drop the connection mid-answer"),
            new Flags.Flag("fault-at", "ROUTE", "all", "only this route misbehaves: authenticate, authorize or meetings"),
            new Flags.Flag("grace-ms", "MS", "5000", "on stop, how long in-flight requests may take to finish; the process ends within this + 1 s"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    /** The backend command's flags, read once: where it listens, its delay, the fault it plays and its stop's grace. */
    record Options(String host, int port, int delayMs, Backend.Fault fault, String faultAt, int graceMs) {
        static Options of(Flags flags) {
            return new Options(flags.get("host"), flags.integer("port", 0, 65535), flags.integer("delay", 0, Limits.DELAY_MAX), parseFault(flags.get("fault")),
                    parseFaultAt(flags.get("fault-at")), ServerPlan.graceMs(flags));
        }
    }

    public static void main(String[] args) {
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print("Usage: java -jar loomylin.jar backend [flags]\n\n" + Flags.describe(FLAGS));
            return;
        }
        Options o = Options.of(flags);
        Backend backend = Launcher.bind(() -> Backend.start(o.host(), o.port(), o.delayMs(), o.fault(), o.faultAt(), o.graceMs()));
        Launcher.log("backend on port {} ({}, delay {} ms{})", backend.port(), Backend.ROUTES, o.delayMs(),
                o.fault() == Backend.Fault.NONE ? "" : ", fault " + o.fault().name().toLowerCase(Locale.ROOT) + (o.faultAt() == null ? "" : " at " + o.faultAt()));
        Shutdown.onSignal(List.of(backend), o.graceMs());
    }

    private static Backend.Fault parseFault(String text) {
        for (Backend.Fault f : Backend.Fault.values()) if (f.name().equalsIgnoreCase(text)) return f;
        throw new UsageError("--fault must be one of none, error, malformed, close; got '" + Params.printable(text) + "'");
    }

    /** The one route that misbehaves, or null for all. */
    private static String parseFaultAt(String text) {
        if (text.equals("all")) return null;
        if (!Backend.HOPS.contains(text))
            throw new UsageError("--fault-at must be one of all, " + String.join(", ", Backend.HOPS) + "; got '" + Params.printable(text) + "'");
        return text;
    }
}
