package loomylin.jetty;

import io.javalin.Javalin;

/**
 * Stops a Loomylin server: Jetty's graceful stop first, then Javalin's. Jetty waits up to the grace for
 * in-flight requests and throws a {@link java.util.concurrent.TimeoutException} (possibly wrapped) when it
 * cut some off; that reaches the caller, which decides how to report it. Javalin's stop then finds Jetty
 * stopped and only runs its stop events, so the twins' {@code serverStopped} handlers (closing their hop
 * clients and the selector threads those hold) run whether or not requests were cut off. Calling Javalin's
 * stop alone would log a cut-off as an error with a stack trace and skip those handlers, leaving threads
 * that delay the JVM's exit.
 */
public final class GracefulStop {
    private GracefulStop() {
    }

    public static void stop(Javalin app) throws Exception {
        try {
            app.jettyServer().server().stop();
        } finally {
            app.stop();
        }
    }
}
