package loomylin.testing;

import io.javalin.Javalin;
import java.net.URI;
import java.util.Locale;
import java.util.function.Function;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.ServerOptions;

/** The two implementations every twin-parameterized test runs against. */
public enum Twin {
    JAVA(loomylin.server.java.AppServer::start),
    KOTLIN(loomylin.server.kotlin.AppServer::start);

    private final Function<ServerOptions, Javalin> servers;

    Twin(Function<ServerOptions, Javalin> servers) {
        this.servers = servers;
    }

    /** Options for a test server on {@code pool}: a short grace so that stopping is quick. */
    public static ServerOptions options(String pool) {
        return ServerOptions.DEFAULTS.withPool(PoolKind.parse(pool)).withGraceMs(1_000);
    }

    /** A started server of this twin on an ephemeral loopback port (the options' host and port are ignored). */
    public Javalin start(ServerOptions options) {
        ServerOptions o = options.withHost("127.0.0.1").withPort(0).withTwin(loomylin.server.jetty.Twin.valueOf(name()));
        if (o.dataFile() == null) o = o.withDataFile(TestData.file().path()).withDataFileBytes(TestData.file().bytes());
        return servers.apply(o);
    }

    /** A started server of this twin on {@code pool}, calling the backend at {@code backend}. */
    public Javalin start(PoolKind pool, String backend) {
        return start(options(pool.toString()).withBackend(URI.create(backend)));
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
