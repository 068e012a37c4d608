package loomylin.server.proc;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Optional;

/** The machine's IPv4 default gateway, read from the kernel's routing table ({@code /proc/net/route}). */
public final class DefaultGateway {
    private DefaultGateway() {
    }

    public static final Path ROUTES = Path.of("/proc/net/route");

    /**
     * The gateway of the first default route (destination 0.0.0.0, gateway flag set) in a routing-table file;
     * empty when there is none or no such file (not Linux).
     */
    public static Optional<Inet4Address> read(Path routes) {
        try {
            for (String line : ProcFile.read(routes).split("\n")) {
                String[] f = line.trim().split("\\s+");
                // Iface Destination Gateway Flags ...; addresses in hex, least significant byte first; 0x2 = RTF_GATEWAY
                if (f.length < 4 || !f[1].equals("00000000") || !f[2].matches("[0-9A-Fa-f]{8}") || !f[3].matches("[0-9A-Fa-f]{1,4}")) continue;
                if ((Integer.parseInt(f[3], 16) & 0x2) == 0) continue;
                long hex = Long.parseLong(f[2], 16);
                byte[] address = {(byte) hex, (byte) (hex >> 8), (byte) (hex >> 16), (byte) (hex >> 24)};
                return Optional.of((Inet4Address) InetAddress.getByAddress(address));
            }
        } catch (IOException e) {
            // no routing table here: no gateway to allow
        }
        return Optional.empty();
    }
}
