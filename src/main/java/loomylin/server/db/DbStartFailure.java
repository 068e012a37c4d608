package loomylin.server.db;

/** The database could not be started, unpacked or reached, said in one line (the launcher exits 1 with it). */
public final class DbStartFailure extends RuntimeException {
    public DbStartFailure(String message) {
        super(message, null, false, false);
    }
}
