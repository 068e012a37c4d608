package loomylin.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** The limits Linux shows in {@code /proc/self/limits}; read before a command opens thousands of sockets. */
public final class ProcLimits {
    private ProcLimits() {
    }

    /** This process's own limits file. */
    public static final Path SELF = Path.of("/proc/self/limits");

    /**
     * The soft "Max open files" in a limits file (the JVM raises it to the hard limit, and children inherit
     * that); empty when it is "unlimited" or there is no such file (not Linux).
     */
    public static OptionalLong openFiles(Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (!line.startsWith("Max open files")) continue;
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.matches("\\d+") ? OptionalLong.of(Long.parseLong(soft)) : OptionalLong.empty();
            }
        } catch (IOException e) {
            // not Linux, or no /proc: whatever runs out of descriptors will say so itself
        }
        return OptionalLong.empty();
    }
}
