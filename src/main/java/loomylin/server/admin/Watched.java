package loomylin.server.admin;

import java.util.Optional;
import loomylin.server.db.DbPool;
import loomylin.server.jetty.Admission;
import loomylin.server.jetty.RequestCounts;
import org.eclipse.jetty.server.Server;

/**
 * One server the admin port reports on: its port, the pool it runs on as written on the command line
 * ({@code qtp:4}, {@code loom}, ...), and its Jetty server, from which the request counts and the pool are read.
 */
public record Watched(int port, String pool, Server server) {
    public RequestCounts counts() {
        return RequestCounts.of(server);
    }

    /** What the server's in-flight limit is doing; empty without {@code --max-in-flight}. */
    public Optional<Admission> admission() {
        return Admission.of(server);
    }

    /** The server's database pool; empty without {@code --db} or {@code --db-url}. */
    public Optional<DbPool> db() {
        return DbPool.of(server);
    }

    public PoolFigures poolFigures() {
        return PoolFigures.of(server.getThreadPool());
    }
}
