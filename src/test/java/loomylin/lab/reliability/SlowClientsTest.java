package loomylin.lab.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.server.web.Limits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Slowloris ({@link SlowClients}) against a server in a JVM with {@code ulimit -n} {@value #OPEN_FILES}:
 * {@value #SLOW} connections, more than it has descriptors for, each dripping a header line every
 * {@value #DRIP_MS} ms and reconnecting whenever the server cuts it, for {@value #SECONDS} s (loopback only).
 * The header deadline ({@code --header-timeout-ms} {@value #DEADLINE_MS}) keeps freeing their descriptors, so
 * normal clients among them (retrying a 503 as its Retry-After asks) are still answered 200, each within a few
 * deadlines; without it the slow connections would hold every descriptor for the whole run.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class SlowClientsTest {
    static final int OPEN_FILES = 1024;
    static final int SLOW = 2_500;
    static final int DRIP_MS = 1_000;
    static final int DEADLINE_MS = 2_000;
    static final int SECONDS = 20;
    static final int NORMAL_CLIENTS = 4;
    /** How long a normal request may take, 503 retries included: a few header deadlines. */
    static final Duration NORMAL_BOUND = Duration.ofMillis(5L * DEADLINE_MS);

    @Test
    void normalClientsAreAnsweredWhileThousandsOfSlowOnesDripHeaders() throws Exception {
        try (ChildJvm child = ChildJvm.servers("--pools", "loom", "--header-timeout-ms", String.valueOf(DEADLINE_MS),
                "--data-file-bytes", String.valueOf(Limits.DATA_FILE_BYTES_MIN)).openFiles(OPEN_FILES).startReady()) {
            int port = child.port();
            assertEquals(200, RawHttp.get(port, "/wait-blocking?ms=0").status());
            assertEquals(404, RawHttp.get(port, "/nope").status()); // every class the answers need is loaded before the limit

            SlowClients.Result r = SlowClients.run(port, SLOW, DRIP_MS, Duration.ofSeconds(SECONDS), NORMAL_CLIENTS, NORMAL_BOUND,
                    () -> child.output().contains("at the open-files limit"));

            String report = "slow connections ended " + r.slow() + "; normal requests answered 200: " + r.normalAnswered() + "\n" + child.output();
            assertTrue(child.output().contains("at the open-files limit"), "the slow connections took every descriptor: " + report);
            assertEquals(List.of(), r.normalProblems(), report);
            assertTrue(r.normalAnswered() >= NORMAL_CLIENTS * 3, report);
            assertTrue(r.slow().getOrDefault("408", 0L) > SLOW, "the slow connections were cut at the deadline, again and again: " + report);
            System.out.println("slow clients: " + report.lines().findFirst().orElse(""));
        }
    }
}
