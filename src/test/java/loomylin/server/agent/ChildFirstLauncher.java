package loomylin.server.agent;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Runs an application jar in a class loader that looks in its own jars before its parent's, as an application
 * server's web-app loader does, for {@link AgentTest}: {@code ChildFirstLauncher APP.jar MAIN ARGS...}. Its Jetty is
 * then the application's own copy, not the class path's, which the agent's pools link to.
 */
public final class ChildFirstLauncher {
    private ChildFirstLauncher() {
    }

    public static void main(String[] args) throws Exception {
        URLClassLoader own = new URLClassLoader("child-first", new URL[] {Path.of(args[0]).toUri().toURL()}, ChildFirstLauncher.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    if (c == null && !name.startsWith("java.")) {
                        try {
                            c = findClass(name);
                        } catch (ClassNotFoundException e) {
                            c = null; // not the application's: its parent's
                        }
                    }
                    if (c == null) c = getParent().loadClass(name);
                    if (resolve) resolveClass(c);
                    return c;
                }
            }
        };
        Thread.currentThread().setContextClassLoader(own);
        own.loadClass(args[1]).getMethod("main", String[].class).invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    }
}
