package loomylin.lab.engine.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.DoubleStream;
import loomylin.lab.engine.measure.Measured;

/**
 * A closed loop of clients that honour {@code Retry-After}, which oha, wrk and hey do not: each of
 * {@code clients} sends a request, waits for its answer, and after a {@code 503} waits the seconds the answer's
 * {@code Retry-After} asks ({@link #retryAfter}) before its next;
 * after any other answer it sends again at once, and after a failure (a timeout, a refused connection) it pauses
 * {@link #AFTER_FAILURE}. The window ends on time: requests still running then are aborted and not counted, as in
 * oha's {@code -z}. Runs in this JVM, on a virtual thread per client, over the JDK's HTTP/1.1 client;
 * {@code clientCpuS} is this whole JVM's CPU over the window.
 */
public final class RetryAfterLoop {
    public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);
    public static final Duration AFTER_FAILURE = Duration.ofMillis(100);

    private RetryAfterLoop() {
    }

    /** What one client saw: latencies of every answer and of the 2xx ones, in ms. */
    private record Seen(long sent, long errors, long aborted, double[] all, double[] ok) {
    }

    public static OhaRun.Split run(URI url, int clients, Duration window, Duration timeout) throws InterruptedException {
        if (clients < 1) throw new IllegalArgumentException("clients must be at least 1, got " + clients);
        HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).GET().build();
        long cpuBefore = cpuNanos();
        long start = System.nanoTime();
        long end = start + window.toNanos();
        List<Seen> seen = new ArrayList<>(clients);
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
             ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Seen>> running = new ArrayList<>(clients);
            for (int i = 0; i < clients; i++) running.add(each.submit(() -> client(http, request, end)));
            for (Future<Seen> f : running) {
                try {
                    seen.add(f.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a Retry-After client failed: " + e.getCause(), e.getCause());
                }
            }
        }
        double wallS = (System.nanoTime() - start) / 1e9;
        double cpuS = (cpuNanos() - cpuBefore) / 1e9;
        double[] all = merged(seen.stream().map(Seen::all).toList());
        double[] ok = merged(seen.stream().map(Seen::ok).toList());
        long sent = seen.stream().mapToLong(Seen::sent).sum();
        long errors = seen.stream().mapToLong(Seen::errors).sum();
        long aborted = seen.stream().mapToLong(Seen::aborted).sum();
        Measured m = new Measured(sent - aborted, all.length, ok.length, Measured.Latency.of(all), wallS, cpuS);
        return new OhaRun.Split(m, Measured.Latency.of(ok), aborted, errors);
    }

    private static Seen client(HttpClient http, HttpRequest request, long end) throws InterruptedException {
        long sent = 0;
        long errors = 0;
        long aborted = 0;
        DoubleStream.Builder all = DoubleStream.builder();
        DoubleStream.Builder ok = DoubleStream.builder();
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            sent++;
            CompletableFuture<HttpResponse<Void>> answer = http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
            HttpResponse<Void> response;
            try {
                response = answer.get(end - t0, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                answer.cancel(true);
                aborted++;
                break;
            } catch (ExecutionException e) {
                if (System.nanoTime() >= end) {
                    aborted++;
                    break;
                }
                errors++;
                pause(AFTER_FAILURE.toNanos(), end);
                continue;
            }
            double ms = (System.nanoTime() - t0) / 1e6;
            all.add(ms);
            if (response.statusCode() / 100 == 2) ok.add(ms);
            if (response.statusCode() == 503) pause(retryAfter(response.headers().firstValue("Retry-After").orElse(null), Instant.now()).toNanos(), end);
        }
        return new Seen(sent, errors, aborted, all.build().toArray(), ok.build().toArray());
    }

    /**
     * The wait a {@code Retry-After} value asks for at {@code now}: its delay-seconds, or the time until its
     * HTTP-date (none once it has passed); 1 s when there is none or it reads as neither; at most
     * {@link #MAX_RETRY_AFTER}.
     */
    static Duration retryAfter(String value, Instant now) {
        Duration asked = Duration.ofSeconds(1);
        if (value != null && value.strip().matches("\\d{1,9}")) asked = Duration.ofSeconds(Long.parseLong(value.strip()));
        else if (value != null) {
            try {
                Duration until = Duration.between(now, ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
                asked = until.isNegative() ? Duration.ZERO : until;
            } catch (DateTimeParseException e) {
                // neither delay-seconds nor an HTTP-date: the default
            }
        }
        return asked.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : asked;
    }

    private static void pause(long nanos, long end) throws InterruptedException {
        long until = Math.min(System.nanoTime() + nanos, end);
        long left;
        while ((left = until - System.nanoTime()) > 0) TimeUnit.NANOSECONDS.sleep(left);
    }

    private static double[] merged(List<double[]> parts) {
        double[] all = parts.stream().flatMapToDouble(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
