package loomylin.lab.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * Slowloris against a running server on loopback, and normal clients among it: {@code slow} connections each send
 * a request line and then one header line every {@code dripMs}, never ending the headers, and reconnect whenever
 * the server ends the connection; {@code normal} clients send one complete request after another with
 * {@code Connection: close}, retrying a 503 (the open-files limit's answer) after 200 ms, for {@code seconds}.
 * It counts how the slow connections ended (408, 503, closed, still open at the end) and whether every normal
 * request was answered 200 within {@code normalBoundMs}, retries included. {@link SlowClientsCommand}
 * ({@code java -jar loomylin.jar slow-clients}) starts a server with a low open-files limit and runs this;
 * {@code SlowClientsTest} runs it against a child JVM.
 */
public final class SlowClients {
    /** What the run came to. {@code slow}: how slow connections ended, by outcome; {@code normalProblems}: one line each. */
    public record Result(Map<String, Long> slow, int normalAnswered, long normalSlowestMs, List<String> normalProblems) {
        public boolean passed() {
            return normalProblems.isEmpty() && normalAnswered > 0;
        }
    }

    private SlowClients() {
    }

    /** The run's settings and what it came to, as slow-clients.csv holds them: the header, then one row. */
    static String csv(int slow, int dripMs, int seconds, int normal, int boundMs, Result r) {
        return "slow,drip_ms,seconds,normal,normal_bound_ms,slow_408,slow_503,slow_closed,slow_other,slow_open_at_end,"
                + "normal_200,normal_slowest_ms,normal_failed\n"
                + String.join(",", List.of(String.valueOf(slow), String.valueOf(dripMs), String.valueOf(seconds), String.valueOf(normal),
                String.valueOf(boundMs), count(r, "408"), count(r, "503"), count(r, CLOSED), String.valueOf(other(r)), count(r, OPEN),
                String.valueOf(r.normalAnswered()), String.valueOf(r.normalSlowestMs()), String.valueOf(r.normalProblems().size()))) + "\n";
    }

    static final String CLOSED = "closed without an answer";
    static final String OPEN = "still open at the end";

    private static String count(Result r, String outcome) {
        return String.valueOf(r.slow().getOrDefault(outcome, 0L));
    }

    private static long other(Result r) {
        return r.slow().entrySet().stream().filter(e -> !List.of("408", "503", CLOSED, OPEN).contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
    }

    /**
     * Runs the slow connections, waits until {@code slowInPlace} says they have taken hold (bounded by the run), then
     * the normal clients, until {@code length} has passed since the start.
     */
    public static Result run(int port, int slow, int dripMs, Duration length, int normal, Duration normalBound, BooleanSupplier slowInPlace)
            throws InterruptedException, ExecutionException {
        long end = System.nanoTime() + length.toNanos();
        Map<String, LongAdder> slowOutcomes = new ConcurrentHashMap<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < slow; i++) threads.submit(() -> slowloris(port, dripMs, end, slowOutcomes));
            while (!slowInPlace.getAsBoolean() && System.nanoTime() < end) Thread.sleep(100);
            List<Future<List<String>>> clients = new ArrayList<>();
            for (int i = 0; i < normal; i++) clients.add(threads.submit(() -> normalClient(port, end, normalBound)));
            int answered = 0;
            long slowest = 0;
            List<String> problems = new ArrayList<>();
            for (Future<List<String>> f : clients) {
                for (String outcome : f.get()) {
                    if (outcome.startsWith("200 in ")) {
                        answered++;
                        slowest = Math.max(slowest, Long.parseLong(outcome.substring("200 in ".length())));
                    } else {
                        problems.add(outcome);
                    }
                }
            }
            threads.shutdown();
            threads.awaitTermination(length.toMillis() + 30_000, java.util.concurrent.TimeUnit.MILLISECONDS);
            Map<String, Long> slowCounts = new TreeMap<>();
            slowOutcomes.forEach((k, v) -> slowCounts.put(k, v.sum()));
            return new Result(Collections.unmodifiableMap(slowCounts), answered, slowest, List.copyOf(problems));
        }
    }

    /** One slow client: drips header lines until the server ends the connection, then again, until {@code end}. */
    private static void slowloris(int port, int dripMs, long end, Map<String, LongAdder> outcomes) {
        while (System.nanoTime() < end) {
            String outcome;
            try (Socket s = connect(port, dripMs)) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                out.write("GET /wait-blocking?ms=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
                outcome = OPEN;
                for (int line = 0; System.nanoTime() < end; line++) {
                    try {
                        byte[] status = in.readNBytes(12); // "HTTP/1.1 408"
                        outcome = status.length == 12 ? new String(status, 9, 3, StandardCharsets.US_ASCII) : CLOSED;
                        break;
                    } catch (SocketTimeoutException stillOpen) {
                        out.write(("X-Slow-" + line + ": x\r\n").getBytes(StandardCharsets.US_ASCII));
                    }
                }
            } catch (IOException e) {
                outcome = e.getClass().getSimpleName();
            }
            outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
            if (!outcome.equals("408")) pause(100); // at the limit (503) or refused: do not spin
        }
    }

    /** A normal client until {@code end}: one request after another, a 503 retried; each outcome, "200 in MS" when answered in time. */
    private static List<String> normalClient(int port, long end, Duration bound) {
        List<String> outcomes = new ArrayList<>();
        while (System.nanoTime() < end) {
            long start = System.nanoTime();
            String outcome = null;
            while (outcome == null) {
                String status = exchange(port, (int) bound.toMillis());
                long ms = (System.nanoTime() - start) / 1_000_000;
                if (status.equals("200")) outcome = ms <= bound.toMillis() ? "200 in " + ms : "200 only after " + ms + " ms";
                else if (!status.equals("503")) outcome = status + " after " + ms + " ms";
                else if (ms > bound.toMillis()) outcome = "still 503 after " + ms + " ms";
                else pause(200);
            }
            outcomes.add(outcome);
        }
        return outcomes;
    }

    /** One complete request with Connection: close; the answer's status, or what went wrong. */
    private static String exchange(int port, int timeoutMs) {
        try (Socket s = connect(port, timeoutMs)) {
            s.getOutputStream().write("GET /wait-blocking?ms=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] answer = s.getInputStream().readAllBytes();
            String text = new String(answer, StandardCharsets.US_ASCII);
            return text.startsWith("HTTP/1.1 ") && text.length() >= 12 ? text.substring(9, 12) : "no answer (" + answer.length + " bytes)";
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static Socket connect(int port, int timeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(timeoutMs);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
