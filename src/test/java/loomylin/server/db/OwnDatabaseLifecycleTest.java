package loomylin.server.db;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import loomylin.testing.ChildJvm;
import loomylin.testing.Http;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * {@code --db} as a user runs it, in a child JVM: the PostgreSQL it starts serves /db-blocking, dies with a
 * {@code kill -9} of Loomylin (the kernel's parent-death signal), is cleaned up by the next start, and a SIGTERM
 * stops it within the grace plus one second, exit 0, its directory gone.
 */
@IntegrationTest
class OwnDatabaseLifecycleTest {
    private static final Pattern POSTGRES_PID = Pattern.compile("database: PostgreSQL \\S+ on 127\\.0\\.0\\.1:\\d+ \\(pid (\\d+),");

    @Test
    void noPostgresOutlivesLoomylinKilledOrStopped() throws Exception {
        long killedOwner, orphan;
        try (ChildJvm first = ChildJvm.servers("--pools", "loom", "--db", "--admin-port", "0").startReady()) {
            killedOwner = first.pid();
            orphan = postgresPid(first);
            assertEquals(200, Http.get("http://127.0.0.1:" + first.port() + "/db-blocking?id=3&ms=0").statusCode());
            first.signal("KILL");
            first.exit(Duration.ofSeconds(10));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !alive(orphan));
        Path left = LocalPostgres.home().resolve("run-" + killedOwner + "-1");
        assertTrue(Files.exists(left), "a killed Loomylin leaves its directory: " + left);

        try (ChildJvm second = ChildJvm.servers("--pools", "loom", "--db", "--admin-port", "0", "--grace-ms", "1000").startReady()) {
            assertFalse(Files.exists(left), "the next start cleans it up");
            long postgres = postgresPid(second);
            Path own = LocalPostgres.home().resolve("run-" + second.pid() + "-1");
            assertTrue(Files.isDirectory(own), own.toString());
            // a request still waiting on the database when the grace ends is cut off; the database does not wait for it
            Thread request = Thread.ofVirtual().start(() -> Http.get("http://127.0.0.1:" + second.port() + "/db-blocking?ms=5000"));
            await().atMost(Duration.ofSeconds(5)).until(() -> Http.get("http://127.0.0.1:" + second.port() + "/pool").body().contains("\"dbActive\":1,"));
            long t0 = System.nanoTime();
            second.signal("TERM");
            assertEquals(0, second.exit(Duration.ofSeconds(10)), second.output());
            long tookMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(tookMs < 1_000 + 1_000, "ended within the grace + 1 s: " + tookMs + " ms\n" + second.output());
            assertFalse(alive(postgres), "its PostgreSQL stopped");
            assertFalse(Files.exists(own), "its directory deleted");
            request.join(10_000);
        }
    }

    private static long postgresPid(ChildJvm child) {
        Matcher m = POSTGRES_PID.matcher(child.output());
        assertTrue(m.find(), child.output());
        return Long.parseLong(m.group(1));
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
