package loomylin.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Ports for tests. Prefer {@code --port 0} (a server picks its own) where the port need not be known up front. */
public final class Ports {
    private Ports() {
    }

    /** Ports a started process may derive from its first one: servers, backend and admin port after it. */
    static final int BLOCK = 6;

    /**
     * A loopback port that was free a moment ago, with the {@link #BLOCK} - 1 ports after it free too. It lies
     * below the kernel's ephemeral range (32768 and up here), so no client connection of a test takes it or the
     * ports a server derives from it (the backend's, the admin port's) between the check and the bind.
     */
    public static int free() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(20_000, 32_000 - BLOCK);
            if (allFree(base)) return base;
        }
        throw new IllegalStateException("no block of " + BLOCK + " free loopback ports in 20000-32000");
    }

    private static boolean allFree(int base) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int p = base; p < base + BLOCK; p++) held.add(new ServerSocket(p, 1, InetAddress.getLoopbackAddress()));
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a listening socket we own
                }
            }
        }
    }
}
