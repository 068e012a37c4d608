package loomylin.server.jetty.internal;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import java.lang.instrument.Instrumentation;
import java.util.function.Consumer;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.Nexus;
import net.bytebuddy.utility.JavaModule;

/**
 * The agent's door into Jetty: Byte Buddy's {@link Advice} on every constructor of Jetty's
 * {@code org.eclipse.jetty.server.Server} whose first parameter is its {@code ThreadPool}. What this leans on,
 * read in Jetty {@link Connectors#CHECKED_JETTY_VERSION}'s {@code Server}: every constructor ends in
 * {@code Server(ThreadPool, Scheduler, ByteBufferPool)} ({@code Server()}, {@code Server(int)} and
 * {@code Server(InetSocketAddress)} through {@code Server(ThreadPool)} with {@code null}), which keeps the pool it
 * is given, or makes its own {@code QueuedThreadPool} for {@code null}, and adds it as a bean; so a pool put in
 * place of the argument is the server's pool for its whole life. {@code new Server(pool)} passes through two such
 * constructors: the {@link Swap} sees its own pool come back the second time and keeps it.
 *
 * <p>Which Jetty versions the rest of Loomylin's pools are made for is decided here too ({@link #supports}): Jetty 12.1.
 */
public final class JettyServerHook {
    /** The class whose constructors are advised. */
    public static final String SERVER = "org.eclipse.jetty.server.Server";
    private static final String THREAD_POOL = "org.eclipse.jetty.util.thread.ThreadPool";

    /** What the agent does with a server's pool. Both methods are called from Jetty's constructor and must not throw. */
    public interface Swap {
        /** The pool the server of class {@code serverType} gets in place of {@code pool} (null: Jetty's own default); {@code pool} to leave it be. */
        Object replace(Object pool, Class<?> serverType);

        /** A server of class {@code serverType} whose constructor returned. */
        void built(Object server, Class<?> serverType);
    }

    private static volatile Swap swap;

    private JettyServerHook() {
    }

    /**
     * Advises every {@code Server} loaded from now on by a class loader that sees this class as it is (a loader that
     * does not, say an isolated one, gets one line through {@code say} and no advice: its inlined code could not call
     * back here).
     */
    public static void install(Instrumentation instrumentation, Swap with, Consumer<String> say) {
        swap = with;
        // Byte Buddy's Nexus (type initialisers for generated classes, which Advice does not need) reaches for
        // sun.misc.Unsafe when an AgentBuilder is made, and JDK 24+ prints four lines of warning for it. In the jar the
        // property's name is relocated with Byte Buddy, so an application's own Byte Buddy never reads it.
        if (System.getProperty(Nexus.PROPERTY) == null) System.setProperty(Nexus.PROPERTY, "true");
        new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
                        say.accept("could not advise " + typeName + " (" + error + "): that server keeps its own pool");
                    }
                })
                .type((AgentBuilder.RawMatcher) (type, loader, module, redefined, domain) -> type.getName().equals(SERVER) && seesThisClass(loader, say))
                .transform((DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader, JavaModule module, java.security.ProtectionDomain domain) ->
                        builder.visit(Advice.to(ServerPoolAdvice.class).on(isConstructor().and(takesArgument(0, named(THREAD_POOL))))))
                .installOn(instrumentation);
    }

    private static boolean seesThisClass(ClassLoader loader, Consumer<String> say) {
        String seen;
        try {
            if (loader != null && Class.forName(JettyServerHook.class.getName(), false, loader) == JettyServerHook.class) return true;
            seen = loader == null ? "the boot class path" : "another copy of the agent";
        } catch (ClassNotFoundException | LinkageError e) {
            seen = "no agent class";
        }
        say.accept("Jetty's Server is loaded by " + loader + ", which sees " + seen + ": that server keeps its own pool");
        return false;
    }

    /** Called by the inlined advice with the constructor's pool argument: the pool the server gets. */
    public static Object replace(Object pool, Class<?> serverType) {
        Swap s = swap;
        if (s == null) return pool;
        try {
            return s.replace(pool, serverType);
        } catch (Throwable t) { // a constructor of the application's must not fail for the agent
            return pool;
        }
    }

    /** Called by the inlined advice once a constructor returned. */
    public static void built(Object server, Class<?> serverType) {
        Swap s = swap;
        if (s == null) return;
        try {
            s.built(server, serverType);
        } catch (Throwable t) {
            // the server is built and runs; only the agent's report of it is lost
        }
    }

    /** The version of the Jetty that {@code serverType} belongs to, as Jetty reports it ({@code Server.getVersion()}). */
    public static String version(Class<?> serverType) throws ReflectiveOperationException {
        return String.valueOf(serverType.getMethod("getVersion").invoke(null));
    }

    /** Whether Loomylin's pools and this advice are made for that Jetty version: 12.1.x, whose Server is as described above. */
    public static boolean supports(String version) {
        return version != null && version.startsWith("12.1.");
    }
}
