package loomylin.testing;

import loomylin.bench.FreePort;

/** Ports for tests. Prefer {@code --port 0} (a server picks its own) where the port need not be known up front. */
public final class Ports {
    private Ports() {
    }

    /** A loopback port nothing listened on a moment ago; another process may take it before the test binds it. */
    public static int free() {
        return FreePort.pick();
    }
}
