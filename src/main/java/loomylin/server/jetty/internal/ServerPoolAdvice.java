package loomylin.server.jetty.internal;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The code Byte Buddy inlines into Jetty's {@code Server} constructors that take a {@code ThreadPool} first: on
 * entry, the pool argument is replaced by the one {@link JettyServerHook} hands back (before Jetty reads it, so
 * that Jetty adopts it as it would its own: {@code _threadPool}, a bean started and stopped with the server); on
 * exit, the built server is reported. Only {@code Object} and {@link JettyServerHook} appear here, so the inlined
 * code links against nothing of Jetty's beyond the constructor it sits in.
 */
final class ServerPoolAdvice {
    private ServerPoolAdvice() {
    }

    @Advice.OnMethodEnter
    static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object pool,
                      @Advice.Origin Class<?> serverType) {
        pool = JettyServerHook.replace(pool, serverType);
    }

    @Advice.OnMethodExit
    static void exit(@Advice.This Object server, @Advice.Origin Class<?> serverType) {
        JettyServerHook.built(server, serverType);
    }
}
