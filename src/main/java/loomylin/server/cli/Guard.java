package loomylin.server.cli;

import java.util.function.Supplier;

/**
 * Runs a command so that a user's mistake ends it with one line on stderr and an exit status (2 for a usage
 * error, 1 for a start-up failure), never a stack trace.
 */
public final class Guard {
    private Guard() {
    }

    public static void run(Runnable command) {
        call(() -> {
            command.run();
            return null;
        });
    }

    public static <T> T call(Supplier<T> command) {
        try {
            return command.get();
        } catch (UsageError e) {
            exit(2, e.getMessage() + " (see --help)");
        } catch (StartupFailure e) {
            exit(1, e.getMessage());
        }
        throw new AssertionError("unreachable: exit returned");
    }

    /** Prints {@code loomylin: line} on stderr and exits with the status. */
    public static void exit(int status, String line) {
        System.err.println("loomylin: " + line);
        System.exit(status);
    }
}
