package loomylin.cli;

/** The user's command line or environment is wrong: printed as one line, exit status 2, no stack trace. */
public final class UsageError extends RuntimeException {
    public UsageError(String message) {
        super(message, null, false, false);
    }
}
