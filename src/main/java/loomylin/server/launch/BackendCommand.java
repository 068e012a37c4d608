package loomylin.server.launch;

import java.util.List;
import java.util.Locale;
import loomylin.server.backend.Backend;
import loomylin.server.cli.CommandLines;
import loomylin.server.cli.Whole;
import loomylin.server.web.Params;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code java -jar loomylin.jar backend [flags]}: the backend alone, e.g. on another host. */
public final class BackendCommand {
    private BackendCommand() {
    }

    /** The backend command's flags, each on the field it fills: where it listens, its delay, the fault it plays and its stop's grace. */
    static final class BackendFlags {
        @Option(names = "--port", paramLabel = "PORT", defaultValue = "7003", description = "port the backend listens on")
        @Whole(min = 0, max = 65535)
        int port;

        @Mixin
        CommonFlags common = new CommonFlags();

        @Option(names = "--fault", paramLabel = "none|error|malformed|close", defaultValue = "none", converter = Converters.Fault.class,
                description = "misbehave on purpose: answer 500, cut JSON, or drop the connection mid-answer")
        Backend.Fault fault;

        /** The one route that misbehaves, or null for all. */
        @Option(names = "--fault-at", paramLabel = "ROUTE", defaultValue = "all", converter = Converters.FaultAt.class,
                description = "only this route misbehaves: authenticate, authorize or meetings")
        String faultAt;
    }

    public static void main(String[] args) {
        BackendFlags o = new BackendFlags();
        if (CommandLines.parse(o, args, System.getenv())) {
            System.out.print("Usage: java -jar loomylin.jar backend [flags]\n\n" + CommandLines.flagTable(new BackendFlags()));
            return;
        }
        String host = o.common.host;
        int delayMs = o.common.delayMs;
        int graceMs = o.common.graceMs;
        Backend backend = Launcher.bind(() -> Backend.start(host, o.port, delayMs, o.fault, o.faultAt, graceMs));
        Launcher.log("backend on port {} ({}, delay {} ms{})", backend.port(), Backend.ROUTES, delayMs,
                o.fault == Backend.Fault.NONE ? "" : ", fault " + o.fault.name().toLowerCase(Locale.ROOT) + (o.faultAt == null ? "" : " at " + o.faultAt));
        Shutdown.onSignal(List.of(backend), graceMs);
    }

    static Backend.Fault parseFault(String text) {
        for (Backend.Fault f : Backend.Fault.values()) if (f.name().equalsIgnoreCase(text)) return f;
        throw new IllegalArgumentException("--fault must be one of none, error, malformed, close; got '" + Params.printable(text) + "'");
    }

    /** The one route that misbehaves, or null for all. */
    static String parseFaultAt(String text) {
        if (text.equals("all")) return null;
        if (!Backend.HOPS.contains(text))
            throw new IllegalArgumentException("--fault-at must be one of all, " + String.join(", ", Backend.HOPS) + "; got '" + Params.printable(text) + "'");
        return text;
    }
}
