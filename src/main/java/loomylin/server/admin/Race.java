package loomylin.server.admin;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One race: the same closed-loop load on every server port at once, from inside the process. Each port gets
 * {@code concurrency} clients on virtual threads sharing one {@link HttpClient}; each sends its next request
 * when the last is answered, until the time is up or {@link #stop()}. Requests still unanswered at the end
 * are cancelled and not counted. A demonstration: the bench stays the measuring tool.
 */
final class Race {
    enum State { RUNNING, FINISHED, STOPPED }

    /** What one port's clients saw. */
    private static final class Tally {
        final int port;
        final String pool;
        final LongAdder errors = new LongAdder();
        final List<Long> nanos = new ArrayList<>(); // guarded by itself

        Tally(int port, String pool) {
            this.port = port;
            this.pool = pool;
        }
    }

    private final RaceSpec spec;
    private final List<Tally> tallies = new ArrayList<>();
    private final List<Thread> clients = new ArrayList<>();
    private final HttpClient http;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final long startNanos = System.nanoTime();
    private final long deadlineNanos;
    private volatile State state = State.RUNNING;
    private volatile long endNanos;

    private Race(RaceSpec spec) {
        this.spec = spec;
        this.deadlineNanos = startNanos + TimeUnit.SECONDS.toNanos(spec.seconds());
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(command -> Thread.ofVirtual().name("race-http").start(command)).build();
    }

    static Race start(RaceSpec spec, List<Watched> servers, String host) {
        Race race = new Race(spec);
        for (Watched w : servers) {
            Tally tally = new Tally(w.port(), w.pool());
            race.tallies.add(tally);
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + w.port() + spec.target()))
                    .timeout(Duration.ofSeconds(spec.seconds() + 30)).GET().build();
            for (int i = 0; i < spec.concurrency(); i++) {
                race.clients.add(Thread.ofVirtual().name("race-" + w.port() + "-", i).start(() -> race.loop(request, tally)));
            }
        }
        Thread.ofVirtual().name("race-referee").start(race::referee);
        return race;
    }

    private void loop(HttpRequest request, Tally tally) {
        while (state == State.RUNNING && System.nanoTime() < deadlineNanos) {
            long sent = System.nanoTime();
            try {
                HttpResponse<Void> answer = http.send(request, HttpResponse.BodyHandlers.discarding());
                long done = System.nanoTime();
                if (done > deadlineNanos || state != State.RUNNING) return; // answered after the end: not counted
                if (answer.statusCode() / 100 != 2) tally.errors.increment();
                synchronized (tally.nanos) {
                    tally.nanos.add(done - sent);
                }
            } catch (InterruptedException e) {
                return; // cancelled at the end
            } catch (IOException e) {
                if (state != State.RUNNING || Thread.currentThread().isInterrupted()) return;
                tally.errors.increment();
                synchronized (tally.nanos) {
                    tally.nanos.add(System.nanoTime() - sent);
                }
            }
        }
    }

    /** Ends the race at its deadline (or at stop), cancelling what is still unanswered. */
    private void referee() {
        try {
            ended.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finish(State.FINISHED);
    }

    void stop() {
        finish(State.STOPPED);
    }

    private synchronized void finish(State how) {
        if (state != State.RUNNING) return;
        endNanos = Math.min(System.nanoTime(), deadlineNanos);
        state = how;
        ended.countDown();
        clients.forEach(Thread::interrupt);
        http.shutdownNow();
    }

    boolean running() {
        return state == State.RUNNING;
    }

    RaceSpec spec() {
        return spec;
    }

    /** The race for the page: its spec, state, time, and per port requests, req/s, p50, p99 and errors so far. */
    Map<String, Object> describe() {
        long now = state == State.RUNNING ? System.nanoTime() : endNanos;
        double elapsed = Math.max(1e-3, (now - startNanos) / 1e9);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", state.name().toLowerCase(java.util.Locale.ROOT));
        out.put("target", spec.target());
        out.put("concurrency", spec.concurrency());
        out.put("seconds", spec.seconds());
        out.put("elapsedS", Math.round(elapsed * 10) / 10.0);
        List<Object> ports = new ArrayList<>();
        for (Tally t : tallies) {
            long[] sorted;
            synchronized (t.nanos) {
                sorted = t.nanos.stream().mapToLong(Long::longValue).toArray();
            }
            Arrays.sort(sorted);
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("port", t.port);
            p.put("pool", t.pool);
            p.put("requests", sorted.length);
            p.put("rps", Math.round((sorted.length - t.errors.sum()) / elapsed * 10) / 10.0);
            p.put("p50Ms", rankMs(sorted, 0.50));
            p.put("p99Ms", rankMs(sorted, 0.99));
            p.put("errors", t.errors.sum());
            ports.add(p);
        }
        out.put("ports", ports);
        return out;
    }

    /** Nearest-rank percentile in milliseconds; null without answers. */
    private static Double rankMs(long[] sorted, double q) {
        if (sorted.length == 0) return null;
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return Math.round(sorted[Math.max(0, index)] / 1e5) / 10.0;
    }
}
