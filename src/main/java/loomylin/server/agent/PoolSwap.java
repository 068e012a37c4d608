package loomylin.server.agent;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import loomylin.server.java.Pools;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.internal.JettyServerHook;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * What the agent does with each Jetty server the application builds: checks that the server is one it can serve
 * (Jetty 12.1, loaded where the agent's own pool classes link to the same Jetty classes), then gives it a fresh
 * pool of the asked kind ({@link Pools#create}, the twins' own), says so in one line, and once the server is built
 * keeps it for the admin port. A server it cannot serve keeps its pool, and its reason is said once.
 *
 * <p>Class loading: the agent's jar is appended to the system class path, after the application's own jars, so
 * {@link Pools} and the rest link against the first Jetty on that path: the application's, when its Jetty is on
 * the class path (a fat jar, {@code -cp}, a manifest's {@code Class-Path}). A server whose {@code Server} class
 * comes from a loader that looks in its own jars first (an application server's web-app loader) would meet pools
 * made of the agent jar's own Jetty classes; it is told apart by class identity and left alone. A loader that asks
 * its parent first (Spring Boot's, a {@code URLClassLoader}) gets the agent jar's Jetty from the class path before
 * its own: that server is served, on the agent's Jetty (docs/reference/agent.md says so).
 */
final class PoolSwap implements JettyServerHook.Swap {
    /** A server the agent put a pool in, with what it replaced. */
    record Swapped(Server server, PoolKind kind, String replaced, ThreadPool pool) {
        /** The server's first network port, once it listens; 0 before. */
        int port() {
            for (Connector c : server.getConnectors()) {
                if (c instanceof NetworkConnector n && n.getLocalPort() > 0) return n.getLocalPort();
            }
            return 0;
        }
    }

    private final AgentOptions options;
    private final Consumer<String> say;
    /** Each Server class seen, and why the agent leaves its servers alone (empty: it serves them). */
    private final Map<Class<?>, String> verdicts = new ConcurrentHashMap<>();
    /** Pools the agent made, with what each replaced, until their server is built. */
    private final Map<Object, String> made = Collections.synchronizedMap(new IdentityHashMap<>());
    private final Set<Object> built = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private final List<Swapped> servers = new CopyOnWriteArrayList<>();
    private int count;
    private boolean adminStarted;

    PoolSwap(AgentOptions options, Consumer<String> say) {
        this.options = options;
        this.say = say;
    }

    @Override
    public Object replace(Object pool, Class<?> serverType) {
        if (pool != null && made.containsKey(pool)) return pool; // Server(pool) handing our pool on to Server(pool, scheduler, buffers)
        if (!verdict(serverType).isEmpty()) return pool;
        String replaced = describe(pool);
        int n;
        synchronized (this) {
            n = ++count;
        }
        PoolKind kind = options.pool();
        ThreadPool fresh = Pools.create(kind, "loomylin-" + kind.type().label + "-" + n);
        made.put(fresh, replaced);
        say.accept("Jetty server " + n + "'s pool " + replaced + " replaced by " + kind + " (" + kind.describe() + ")");
        return fresh;
    }

    @Override
    public void built(Object server, Class<?> serverType) {
        if (!verdict(serverType).isEmpty() || !built.add(server)) return; // Server(pool)'s exit after Server(pool, scheduler, buffers)'s
        Server s = (Server) server;
        String replaced = made.remove(s.getThreadPool());
        if (replaced == null) return;
        servers.add(new Swapped(s, options.pool(), replaced, s.getThreadPool()));
        startAdminOnce();
    }

    /** The servers the agent put a pool in, in the order they were built. */
    List<Swapped> servers() {
        return servers;
    }

    private synchronized void startAdminOnce() {
        if (adminStarted || options.adminPort() < 0) return;
        adminStarted = true;
        AgentAdmin.startInBackground(options, this::servers, say);
    }

    /** Why servers of this class keep their own pool, said once; empty when the agent serves them. */
    private String verdict(Class<?> serverType) {
        return verdicts.computeIfAbsent(serverType, type -> {
            String why = why(type);
            if (!why.isEmpty()) say.accept(why + ": its servers keep their own pool");
            return why;
        });
    }

    private static String why(Class<?> serverType) {
        String version;
        try {
            version = JettyServerHook.version(serverType);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return "Jetty's version unreadable (" + e + ")";
        }
        if (!JettyServerHook.supports(version)) return "Jetty " + version + " is not supported (the agent runs Jetty 12.1 servers)";
        try {
            if (Class.forName(JettyServerHook.SERVER, false, PoolSwap.class.getClassLoader()) == serverType) return "";
        } catch (ClassNotFoundException | LinkageError e) {
            // falls through: the agent's loader has no Jetty of its own to compare
        }
        ClassLoader loader = serverType.getClassLoader();
        String named = loader == null ? "the boot class path" : "class loader " + (loader.getName() != null ? "'" + loader.getName() + "' " : "")
                + "(" + loader.getClass().getName() + ")";
        return "Jetty's Server comes from " + named + ", not from the class path the agent's pools link to"
                + " (a class loader that looks in its own jars first, as an application server's does)";
    }

    /** The pool the application gave its server, in a few words. */
    static String describe(Object pool) {
        if (pool == null) return "(none given: Jetty's default QueuedThreadPool, 8 to 200 threads)";
        if (pool instanceof QueuedThreadPool q)
            return "QueuedThreadPool '" + q.getName() + "' (" + q.getMinThreads() + " to " + q.getMaxThreads() + " threads"
                    + (q.getVirtualThreadsExecutor() != null ? ", virtual-threads executor" : "") + ")";
        if (pool instanceof VirtualThreadPool v)
            return "VirtualThreadPool '" + v.getName() + "' (" + (v.getMaxConcurrentTasks() > 0 ? "at most " + v.getMaxConcurrentTasks() + " tasks" : "no task cap") + ")";
        return pool.getClass().getName();
    }
}
