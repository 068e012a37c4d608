package loomylin.server.agent;

import java.lang.instrument.Instrumentation;
import loomylin.server.jetty.internal.JettyServerHook;

/**
 * {@code java -javaagent:loomylin.jar=pool=KIND[,admin=PORT] -jar their-app.jar}: runs every Jetty 12.1
 * {@code Server} the application builds on the pool {@code KIND} (any pool {@code --pool} accepts), wherever it is
 * built (embedded Jetty, Javalin), and with {@code admin=PORT} serves that pool's figures on {@code /metrics} and
 * {@code /pool}. Everything it says is one line on stderr starting {@link #PREFIX}: the pool it replaced and the
 * one it put in, the admin port, or why it left the application as it was (bad arguments, a Jetty it does not
 * support, a class loader it cannot reach). An application that never builds a Jetty server hears nothing from it.
 *
 * <p>Nothing here runs before the application's {@code Server} class loads: the premain only reads the arguments
 * and registers Byte Buddy's transformer ({@link JettyServerHook}).
 */
public final class Agent {
    /** How every line of the agent's starts. */
    public static final String PREFIX = "loomylin agent: ";

    private Agent() {
    }

    public static void premain(String args, Instrumentation instrumentation) {
        AgentOptions options;
        try {
            options = AgentOptions.parse(args);
        } catch (IllegalArgumentException e) {
            say(e.getMessage() + "; the application runs unchanged");
            return;
        }
        try {
            JettyServerHook.install(instrumentation, new PoolSwap(options, Agent::say), Agent::say);
        } catch (RuntimeException | LinkageError e) {
            say("could not install (" + e + "); the application runs unchanged");
        }
    }

    /** One line on stderr: the agent's only output. */
    static void say(String line) {
        System.err.println(PREFIX + line);
    }
}
