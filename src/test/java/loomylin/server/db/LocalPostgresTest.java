package loomylin.server.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Loomylin's own PostgreSQL: it starts (as "nobody" when the tests run as root), holds the seeded table, and is gone after close. */
class LocalPostgresTest {
    @Test
    void startsSeededAndLeavesNothingBehind() throws Exception {
        LocalPostgres pg = LocalPostgres.start(null, 20);
        long pid = pg.pid();
        try {
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "running");
            DbOptions o = pg.options(1, 1_000);
            Properties p = new Properties();
            p.setProperty("user", o.user());
            p.setProperty("password", o.password());
            try (Connection c = o.connect(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT count(*), current_setting('listen_addresses'), current_setting('fsync') FROM " + Items.TABLE)) {
                r.next();
                assertEquals(Items.ROWS, r.getInt(1));
                assertEquals("127.0.0.1", r.getString(2), "loopback only");
                assertEquals("off", r.getString(3));
            }
            p.setProperty("password", "wrong");
            assertFalse(connects(o.jdbcUrl(), p), "a password is asked for");
            assertTrue(pg.version().matches("\\d+\\.\\d+"), pg.version());
            if (RunAs.root())
                assertEquals(Optional.of(String.valueOf(RunAs.NOBODY)), ProcessHandle.of(pid).flatMap(h -> h.info().user())
                        .map(u -> u.equals("nobody") ? String.valueOf(RunAs.NOBODY) : u), "not root");
        } finally {
            pg.close();
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the server is gone");
        assertFalse(Files.exists(pg.directory()), "its directory is gone");
        pg.close(); // again: nothing happens
    }

    private static boolean connects(String url, Properties p) {
        try (Connection c = DriverManager.getConnection(url, p)) {
            return true;
        } catch (java.sql.SQLException e) {
            return false;
        }
    }
}
