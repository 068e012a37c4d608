package loomylin.lab.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * kill -9 with a request in flight, then start again on the same port at once: the bind succeeds (the
 * connector sets SO_REUSEADDR, so the dead server's TIME_WAIT sockets do not block it) and it answers.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class KillRestartTest {
    @Test
    void restartRightAfterKill9BindsTheSamePort() throws Exception {
        int port;
        try (ChildJvm first = ChildJvm.servers("--pools", "loom").startReady()) {
            port = first.port();
            assertEquals(200, RawHttp.get(port, "/wait-blocking?ms=0").status());
            try (Socket inFlight = RawHttp.connect(port, Duration.ofSeconds(10))) {
                inFlight.getOutputStream().write("GET /wait-blocking?ms=30000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
                await().atMost(Duration.ofSeconds(10)).until(() -> RawHttp.get(port, "/pool").body().contains("\"inFlight\":2,"));
                first.process().destroyForcibly(); // SIGKILL: no shutdown hook, no graceful anything
                assertTrue(first.process().waitFor(10, TimeUnit.SECONDS));
                assertEquals(137, first.process().exitValue(), "killed by SIGKILL");
                // the kernel closed the server's end first, so that end now sits in TIME_WAIT
                assertTrue(RawHttp.closedByServer(inFlight, Duration.ofSeconds(5)));
            }
        }
        long start = System.nanoTime();
        try (ChildJvm second = ChildJvm.servers("--pools", "loom", "--port", String.valueOf(port)).startReady()) {
            long startedMs = (System.nanoTime() - start) / 1_000_000;
            assertFalse(second.output().contains("already in use"), second.output());
            assertEquals(200, RawHttp.get(port, "/wait-blocking?ms=0").status(), "the restarted server answers");
            System.out.println("kill -9 restart: bound and ready after " + startedMs + " ms");
        }
    }
}
