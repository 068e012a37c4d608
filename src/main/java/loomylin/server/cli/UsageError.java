package loomylin.server.cli;

import java.util.function.Function;

/** The user's command line or environment is wrong: printed as one line, exit status 2, no stack trace. */
public final class UsageError extends RuntimeException {
    public UsageError(String message) {
        super(message, null, false, false);
    }

    /**
     * What {@code parser} reads from {@code text}; its {@link IllegalArgumentException} becomes a usage error with
     * the same message. The one path from a domain parser ({@code PoolKind::parse}, {@code Twin::parse}) to exit 2.
     */
    public static <T> T parsing(Function<String, ? extends T> parser, String text) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
    }
}
