package loomylin.testing;

import io.javalin.Javalin;
import java.net.URI;
import java.util.Locale;
import java.util.function.Function;
import loomylin.jetty.PoolKind;
import loomylin.jetty.ServerOptions;

/** The two implementations every twin-parameterized test runs against. */
public enum Twin {
    JAVA(loomylin.java.AppServer::start),
    KOTLIN(loomylin.kotlin.AppServer::start);

    private final Function<ServerOptions, Javalin> servers;

    Twin(Function<ServerOptions, Javalin> servers) {
        this.servers = servers;
    }

    /** Options for a test server on {@code pool}: a short grace so that stopping is quick. */
    public static ServerOptions options(String pool) {
        ServerOptions o = new ServerOptions();
        o.pool = PoolKind.parse(pool);
        o.graceMs = 1_000;
        return o;
    }

    /** A started server of this twin on an ephemeral loopback port (the options' host and port are ignored). */
    public Javalin start(ServerOptions options) {
        ServerOptions o = options.copy();
        o.host = "127.0.0.1";
        o.port = 0;
        o.twin = loomylin.jetty.Twin.valueOf(name());
        if (o.dataFile == null) {
            o.dataFile = TestData.file().path();
            o.dataFileBytes = TestData.file().bytes();
        }
        return servers.apply(o);
    }

    /** A started server of this twin on {@code pool}, calling the backend at {@code backend}. */
    public Javalin start(PoolKind pool, String backend) {
        ServerOptions o = options(pool.toString());
        o.backend = URI.create(backend);
        return start(o);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
