package loomylin.lab.experiment.bound;

import java.util.Locale;

/**
 * Which client a {@code bench --preset db} run reads the database through: JDBC on the request's thread
 * ({@code /db-blocking}, HikariCP) or Vert.x's non-blocking PostgreSQL client ({@code /db-async}), a pool of
 * the same size waiting as long for a connection. {@code --db-client} picks it.
 */
enum DbClient {
    JDBC("/db-blocking", "JDBC on the request's thread through a HikariCP pool per server"),
    VERTX("/db-async", "Vert.x's non-blocking PostgreSQL client (no thread waits) through a pool per server");

    final String route;
    /** What reads the row, as the report says it: "... that waits N ms for a connection" follows. */
    final String how;

    DbClient(String route, String how) {
        this.route = route;
        this.how = how;
    }

    /** {@code jdbc} or {@code vertx}; anything else throws {@link IllegalArgumentException} with a one-line message. */
    static DbClient parse(String text) {
        for (DbClient c : values()) if (c.flag().equals(text.trim().toLowerCase(Locale.ROOT))) return c;
        throw new IllegalArgumentException("--db-client: jdbc or vertx, got " + text);
    }

    String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** How a report for this client begins its text after the title and provenance. */
    String bodyStart() {
        return "`" + route + "?ms=";
    }

    /** The client whose report {@code md} is (by how its text begins); JDBC when none matches. */
    static DbClient ofReport(String md) {
        for (DbClient c : values()) if (md.contains("\n" + c.bodyStart())) return c;
        return JDBC;
    }
}
