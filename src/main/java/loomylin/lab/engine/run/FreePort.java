package loomylin.lab.engine.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A port nothing listens on right now, from the kernel's ephemeral range. Another process may take it
 * before our server binds it; {@link ServerProcess} then sees "port already in use" and the bench retries.
 */
public final class FreePort {
    private FreePort() {
    }

    public static int pick() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }
}
