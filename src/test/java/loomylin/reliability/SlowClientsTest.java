package loomylin.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import loomylin.web.Limits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Slowloris against a server in a JVM with {@code ulimit -n} {@value #OPEN_FILES}: {@value #SLOW} connections,
 * more than it has descriptors for, each sending a request line and then one header line every
 * {@value #DRIP_MS} ms, reconnecting whenever the server cuts them, for {@value #SECONDS} s (loopback only). The
 * header deadline ({@code --header-timeout-ms} {@value #DEADLINE_MS}) keeps freeing their descriptors, so normal
 * clients among them (retrying a 503 as its Retry-After asks) are still answered 200, each within a bound, and no
 * request of theirs is left without an answer.
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
                "--data-file-bytes", String.valueOf(Limits.DATA_FILE_BYTES_MIN)).openFiles(OPEN_FILES).startReady();
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = child.port();
            assertEquals(200, RawHttp.get(port, "/wait-blocking?ms=0").status());
            assertEquals(404, RawHttp.get(port, "/nope").status()); // every class the answers need is loaded before the limit
            long end = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
            Map<String, AtomicLong> slowOutcomes = new ConcurrentHashMap<>();
            for (int i = 0; i < SLOW; i++) threads.submit(() -> slowloris(port, end, slowOutcomes));
            await("the slow connections take every descriptor").atMost(Duration.ofSeconds(SECONDS)).pollInterval(Duration.ofMillis(100))
                    .until(() -> child.output().contains("at the open-files limit"));

            List<Future<List<String>>> normal = new ArrayList<>();
            for (int i = 0; i < NORMAL_CLIENTS; i++) normal.add(threads.submit(() -> normalClient(port, end)));
            List<String> problems = new ArrayList<>();
            int answered = 0;
            for (Future<List<String>> f : normal) {
                for (String outcome : f.get()) {
                    if (outcome.equals("200")) answered++;
                    else problems.add(outcome);
                }
            }
            Map<String, Long> slow = new TreeMap<>();
            slowOutcomes.forEach((k, v) -> slow.put(k, v.get()));
            String report = "slow connections' outcomes " + slow + "; normal requests answered 200: " + answered + "\n" + child.output();
            assertEquals(List.of(), problems, report);
            assertTrue(answered >= NORMAL_CLIENTS * 3, report);
            assertTrue(slow.getOrDefault("408", 0L) > SLOW, "the slow connections were cut at the deadline, again and again: " + report);
            System.out.println("slow clients: " + report.lines().findFirst().orElse(""));
        }
    }

    /** One slow client: drips header lines until the server ends the connection, then again, until {@code end}. */
    private static void slowloris(int port, long end, Map<String, AtomicLong> outcomes) {
        while (System.nanoTime() < end) {
            String outcome;
            try (Socket s = RawHttp.connect(port, Duration.ofSeconds(10))) {
                s.setSoTimeout(DRIP_MS);
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                out.write("GET /wait-blocking?ms=0 HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
                outcome = "still open at the end";
                for (int line = 0; System.nanoTime() < end; line++) {
                    try {
                        byte[] status = in.readNBytes(12); // "HTTP/1.1 408"
                        outcome = status.length == 12 ? new String(status, 9, 3, StandardCharsets.US_ASCII) : "closed without an answer";
                        break;
                    } catch (java.net.SocketTimeoutException stillOpen) {
                        out.write(("X-Slow-" + line + ": x\r\n").getBytes(StandardCharsets.US_ASCII));
                    }
                }
            } catch (IOException e) {
                outcome = RawHttp.classify(e).split(":", 2)[0];
            }
            outcomes.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
            if (!outcome.equals("408")) sleepQuietly(100); // at the limit (503) or refused: do not spin
        }
    }

    /** A normal client until {@code end}: one request after another, a 503 retried; each outcome, "200" when answered in time. */
    private static List<String> normalClient(int port, long end) {
        List<String> outcomes = new ArrayList<>();
        while (System.nanoTime() < end) {
            long start = System.nanoTime();
            String outcome = null;
            while (outcome == null) {
                RawHttp.Outcome o = RawHttp.attempt(port, "GET /wait-blocking?ms=0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", NORMAL_BOUND);
                long ms = (System.nanoTime() - start) / 1_000_000;
                if (o.status() == 200) outcome = ms <= NORMAL_BOUND.toMillis() ? "200" : "200 only after " + ms + " ms";
                else if (o.status() != 503) outcome = o.kind() + " after " + ms + " ms: " + o;
                else if (ms > NORMAL_BOUND.toMillis()) outcome = "still 503 after " + ms + " ms";
                else sleepQuietly(200);
            }
            outcomes.add(outcome);
        }
        return outcomes;
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
