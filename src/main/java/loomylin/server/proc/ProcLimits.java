package loomylin.server.proc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/** The kernel limits a command checks before it opens thousands of sockets: open files and ephemeral ports. */
public final class ProcLimits {
    private ProcLimits() {
    }

    /** This process's own limits file. */
    public static final Path SELF = Path.of("/proc/self/limits");

    /** The machine's ephemeral port range: two numbers, the first and the last port. */
    public static final Path PORT_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /**
     * The soft "Max open files" in a limits file (the JVM raises it to the hard limit, and children inherit
     * that); empty when it is "unlimited" or there is no such file (not Linux).
     */
    public static OptionalLong openFiles(Path limits) {
        try {
            for (String line : ProcFile.read(limits).split("\n")) {
                if (!line.startsWith("Max open files")) continue;
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.matches("\\d+") ? OptionalLong.of(Long.parseLong(soft)) : OptionalLong.empty();
            }
        } catch (IOException e) {
            // not Linux, or no /proc: whatever runs out of descriptors will say so itself
        }
        return OptionalLong.empty();
    }

    /** How many ports a port-range file ({@link #PORT_RANGE}) spans; empty if there is no such file or it is unreadable. */
    public static OptionalLong ephemeralPorts(Path portRange) {
        try {
            String[] ends = ProcFile.read(portRange).trim().split("\\s+");
            return OptionalLong.of(Long.parseLong(ends[1]) - Long.parseLong(ends[0]) + 1);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
