package loomylin.server.cli;

/** Start-up could not complete for a reason outside the program (port taken, no permission): exit status 1. */
public final class StartupFailure extends RuntimeException {
    public StartupFailure(String message) {
        super(message, null, false, false);
    }
}
