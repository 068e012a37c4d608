package loomylin;

import io.javalin.Javalin;
import java.util.function.Function;

/** The two implementations every twin-parameterized test runs against. */
public enum Twin {
    JAVA(loomylin.java.Servers::start),
    KOTLIN(loomylin.kotlin.Servers::start);

    private final Function<ServerOptions, Javalin> servers;

    Twin(Function<ServerOptions, Javalin> servers) {
        this.servers = servers;
    }

    /** Starts one server of this twin on an ephemeral loopback port. */
    public Javalin start(PoolKind pool, String backend) {
        ServerOptions options = new ServerOptions();
        options.host = "127.0.0.1";
        options.port = 0;
        options.pool = pool;
        options.twin = name().toLowerCase();
        options.backend = java.net.URI.create(backend);
        options.graceMs = 1_000;
        return servers.apply(options);
    }
}
