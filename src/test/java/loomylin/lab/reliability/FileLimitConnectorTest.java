package loomylin.lab.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A server in a JVM with {@code ulimit -n 256} gets 400 connections, each with a request, all held open.
 * The ones it has descriptors for are answered 200; the rest get a complete 503 with Retry-After
 * instead of hanging in the accept queue; the limit is logged once per burst, not per connection, and no
 * Jetty "Accept Failure" stack traces; when the connections close, it serves again.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class FileLimitConnectorTest {
    static final int LIMIT = 256;
    static final int CONNECTIONS = 400;

    @Test
    void atTheLimitNewConnectionsGetA503AndTheServerRecovers() throws Exception {
        try (ChildJvm child = ChildJvm.servers("--pools", "loom").openFiles(LIMIT).startReady()) {
            int port = child.port();
            assertEquals(200, RawHttp.get(port, "/wait-blocking?ms=0").status());
            assertEquals(404, RawHttp.get(port, "/nope").status()); // every class the answers need is loaded before the limit
            for (int burst = 1; burst <= 2; burst++) {
                Map<String, Integer> kinds = new TreeMap<>();
                List<Socket> open = new ArrayList<>();
                try {
                    for (int i = 0; i < CONNECTIONS; i++) {
                        RawHttp.Outcome o;
                        try {
                            Socket s = RawHttp.connect(port, Duration.ofSeconds(10));
                            open.add(s);
                            s.getOutputStream().write("GET /wait-blocking?ms=0 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
                            o = new RawHttp.Outcome(RawHttp.read(s.getInputStream(), System.nanoTime()), null);
                            if (o.status() == 503) {
                                assertEquals("1", o.answer().header("Retry-After"), o.toString());
                                assertEquals("close", o.answer().header("Connection"), o.toString());
                                s.close(); // as any client does after Connection: close
                            }
                        } catch (IOException e) {
                            o = new RawHttp.Outcome(null, RawHttp.classify(e));
                        }
                        kinds.merge(o.kind(), 1, Integer::sum);
                    }
                } finally {
                    for (Socket s : open) s.close();
                }
                String report = "burst " + burst + ": " + kinds + "\n" + child.output();
                assertEquals(CONNECTIONS, kinds.getOrDefault("200", 0) + kinds.getOrDefault("503", 0), "every connection got an answer: " + report);
                assertTrue(kinds.getOrDefault("200", 0) > 100, report);
                assertTrue(kinds.getOrDefault("503", 0) > 0, "the limit was reached: " + report);

                // recovers once the connections are gone
                await("serves again after the burst: " + report).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                        .until(() -> RawHttp.get(port, "/wait-blocking?ms=0", Duration.ofSeconds(5)).status() == 200);
                // a quiet second ends the burst; the next accepted connection then logs the recovery
                await().pollDelay(Duration.ofMillis(1_100)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                        .until(() -> RawHttp.get(port, "/wait-blocking?ms=0").status() == 200 && child.output().contains("accepting connections again"));
                assertEquals(burst, child.count("at the open-files limit (accept"), "one warning per burst:\n" + child.output());
                assertEquals(burst, child.count("accepting connections again"), "one recovery line per burst:\n" + child.output());
                assertEquals(0, child.count("Accept Failure"), "no per-connection accept failures logged:\n" + child.output());
                System.out.println("open-files limit " + report.lines().findFirst().orElse(""));
            }
        }
    }
}
