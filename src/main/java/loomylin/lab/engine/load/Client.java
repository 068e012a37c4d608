package loomylin.lab.engine.load;

import java.util.Locale;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * The load generators. hey and wrk drive a closed loop (each connection sends its next request when the
 * last is answered); oha drives an open loop at a constant rate and counts latency from each request's
 * intended send time, as wrk2 does.
 */
public enum Client {
    HEY("hey", "apt install hey | go install github.com/rakyll/hey@latest | brew install hey"),
    WRK("wrk", "apt install wrk | brew install wrk"),
    OHA("oha", "cargo install oha --version 1.16.0 --locked");

    public final String install;
    private final String label;

    Client(String label, String install) {
        this.label = label;
        this.install = install;
    }

    public String label() {
        return label;
    }

    /** A closed-loop client by name (--client). */
    public static Client closed(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "hey" -> HEY;
            case "wrk" -> WRK;
            default -> throw new UsageError("--client must be hey or wrk, got '" + Params.printable(name) + "'");
        };
    }

    @Override
    public String toString() {
        return label;
    }
}
