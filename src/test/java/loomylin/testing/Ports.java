package loomylin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports for tests. Prefer {@code --port 0} (a server picks its own) where the port need not be known up front. */
public final class Ports {
    private Ports() {
    }

    /** A loopback port nothing listened on a moment ago; another process may take it before the test binds it. */
    public static int free() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }
}
