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

    /**
     * The first of {@code n} consecutive ports nothing listens on right now, for a JVM that puts its servers on
     * consecutive ports (the servers' default set-up: three servers and the backend after them).
     */
    public static int block(int n) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = pick();
            if (first + n - 1 > 65535) continue;
            boolean free = true;
            for (int p = first + 1; p < first + n && free; p++) free = bindable(p);
            if (free) return first;
        }
        throw new UncheckedIOException(new IOException("no " + n + " consecutive free ports on loopback in 100 tries"));
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
