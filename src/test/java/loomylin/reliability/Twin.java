package loomylin.reliability;

import io.javalin.Javalin;
import java.util.function.Function;
import loomylin.ServerOptions;

/** The two implementations every server-side test runs against. */
enum Twin {
    JAVA("java", loomylin.java.Servers::start),
    KOTLIN("kotlin", loomylin.kotlin.Servers::start);

    final String label;
    private final Function<ServerOptions, Javalin> start;

    Twin(String label, Function<ServerOptions, Javalin> start) {
        this.label = label;
        this.start = start;
    }

    /** A started server on a loopback ephemeral port (the options' port is ignored). */
    Javalin start(ServerOptions options) {
        ServerOptions o = options.copy();
        o.host = "127.0.0.1";
        o.port = 0;
        o.twin = label;
        return start.apply(o);
    }

    static ServerOptions options(String pool) {
        ServerOptions o = new ServerOptions();
        o.pool = loomylin.PoolKind.parse(pool);
        o.graceMs = 1_000;
        return o;
    }

    @Override
    public String toString() {
        return label;
    }
}
