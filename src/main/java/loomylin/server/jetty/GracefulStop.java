package loomylin.server.jetty;

import io.javalin.Javalin;
import org.eclipse.jetty.server.Server;

/**
 * Stops a Loomylin server: Jetty's graceful stop first, then Javalin's. Jetty waits up to the grace for
 * in-flight requests and throws a {@link java.util.concurrent.TimeoutException} (possibly wrapped) when it
 * cut some off; that reaches the caller, which decides how to report it. Javalin's stop then finds Jetty
 * stopped and only runs its stop events, so the twins' {@code serverStopped} handlers (closing their hop
 * clients and the selector threads those hold) run whether or not requests were cut off. Calling Javalin's
 * stop alone would log a cut-off as an error with a stack trace and skip those handlers, leaving threads
 * that delay the JVM's exit.
 *
 * <p>When the grace ends with requests still running, Jetty's stop fails and leaves the server FAILED, not
 * STOPPED, so Javalin's stop runs Jetty's stop a second time. That second run must not wait a second grace:
 * a request on a virtual thread (a {@code QueuedThreadPool}'s virtual-threads executor, Jetty's
 * {@code VirtualThreadPool}) is never interrupted by its pool and would hold it to the end. The grace is
 * therefore spent once: the server's stop timeout is 0 before Javalin's stop.
 */
public final class GracefulStop {
    private GracefulStop() {
    }

    public static void stop(Javalin app) throws Exception {
        Server server = app.jettyServer().server();
        try {
            server.stop();
        } finally {
            server.setStopTimeout(0);
            app.stop();
        }
    }
}
