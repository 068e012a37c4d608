package loomylin.lab.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import loomylin.server.proc.ProcReader;
import loomylin.server.proc.ProcStatus;

/**
 * The soak's load and judge: a steady mix of every endpoint and some bad requests against running servers for a
 * given time, while it samples the server process's RSS and threads from /proc. It prints what it sent, what came
 * back by class, connection errors, and RSS and threads at start, after warm-up and at the end, and returns one
 * verdict per check and the summary row. {@link SoakCommand} ({@code java -jar loomylin.jar soak}) starts the servers,
 * runs this and judges their stop.
 */
final class Soak {
    /** One kind of request: the target and the status it must get. */
    record Kind(String name, String target, int expected, int weight) {
    }

    static final List<Kind> KINDS = List.of(
            new Kind("computational", "/computational?iterations=20000", 200, 10),
            new Kind("wait-blocking", "/wait-blocking?ms=20", 200, 10),
            new Kind("wait-async", "/wait-async?ms=20", 200, 10),
            new Kind("hops-blocking", "/hops-blocking?delay=5", 200, 8),
            new Kind("hops-async", "/hops-async?delay=5", 200, 8),
            new Kind("pool", "/pool", 200, 3),
            new Kind("bad-number", "/computational?iterations=abc", 400, 2),
            new Kind("negative", "/wait-blocking?ms=-5", 400, 1),
            new Kind("too-big", "/wait-async?ms=99999999999", 400, 1),
            new Kind("repeated", "/wait-blocking?ms=1&ms=2", 400, 1),
            new Kind("bad-escape", "/hops-async?delay=%ZZ", 400, 1),
            new Kind("no-route", "/nope", 404, 1));


    private final LongAdder sent = new LongAdder();
    private final Map<String, LongAdder> byClass = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> unexpected = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> answeredByPort = new ConcurrentHashMap<>();
    private final List<long[]> samples = new ArrayList<>(); // {elapsed s, rss kB, threads}
    private final Load options;

    /** The summary's columns in soak.csv. */
    static final List<String> CSV_COLUMNS = List.of("seconds", "ports", "clients_per_port", "think_ms", "warmup_s", "sent", "sent_per_s",
            "answered", "status_2xx", "status_4xx", "status_5xx", "unexpected", "connection_errors", "unaccounted", "rss_start_mb",
            "rss_after_warmup_mb", "rss_peak_after_mb", "rss_end_mb", "threads_start", "threads_after_warmup", "threads_peak_after",
            "threads_end", "checks_passed", "checks_failed");

    /**
     * What the soak sends and how it judges: the servers' ports, the server process to sample from /proc (0 for
     * none), how long, clients per port and their pause, the warm-up before the RSS and thread baselines, and the
     * growth allowed after it.
     */
    record Load(List<Integer> ports, long pid, int seconds, int clientsPerPort, int thinkMs, int warmupSeconds, double rssTolerance,
                int threadTolerance) {
    }

    /** The soak's verdicts, and its summary as soak.csv holds it (the header, then one row). */
    record Result(List<ReliabilityRun.Check> checks, String csv) {
    }

    private final PrintStream out;

    Soak(Load options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    Result run() throws InterruptedException {
        out.printf("soak: %d s against ports %s, %d clients per port, %d ms think time, warm-up %d s%n",
                options.seconds(), options.ports(), options.clientsPerPort(), options.thinkMs(), options.warmupSeconds());
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(options.seconds());
        sample(start);
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            int seed = 0;
            for (int port : options.ports()) {
                for (int c = 0; c < options.clientsPerPort(); c++) {
                    Random random = new Random(20_260_511L + seed++);
                    clients.submit(() -> client(http, port, random, end));
                }
            }
            long nextSample = start;
            long nextReport = start + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < end) {
                Thread.sleep(200);
                long now = System.nanoTime();
                if (now >= nextSample + TimeUnit.SECONDS.toNanos(5)) {
                    nextSample = now;
                    sample(start);
                }
                if (now >= nextReport) {
                    nextReport = now + TimeUnit.SECONDS.toNanos(60);
                    long[] last = samples.get(samples.size() - 1);
                    out.printf("soak: %d s, %d sent, %s, %d connection errors, RSS %d MB, %d threads%n",
                            (now - start) / 1_000_000_000L, sent.sum(), classes(), total(errors), last[1] / 1024, last[2]);
                }
            }
        }
        sample(start);
        return report();
    }

    private void client(HttpClient http, int port, Random random, long end) {
        int totalWeight = KINDS.stream().mapToInt(Kind::weight).sum();
        while (System.nanoTime() < end) {
            int pick = random.nextInt(totalWeight);
            Kind kind = KINDS.get(0);
            for (Kind k : KINDS) {
                pick -= k.weight();
                if (pick < 0) {
                    kind = k;
                    break;
                }
            }
            // one in twenty on a new connection, HTTP/1.0, closed after; and what java.net.URI refuses (%ZZ)
            boolean fresh = random.nextInt(20) == 0 || kind.target().contains("%Z");
            sent.increment();
            try {
                int status = fresh ? http10(port, kind.target()) : pooled(http, port, kind.target());
                answeredByPort.computeIfAbsent(port, p -> new LongAdder()).increment();
                byClass.computeIfAbsent(status / 100 + "xx", c -> new LongAdder()).increment();
                if (status != kind.expected())
                    unexpected.computeIfAbsent(kind.name() + " on " + port + " got " + status, u -> new LongAdder()).increment();
            } catch (IOException e) {
                String what = e instanceof HttpTimeoutException ? "timeout" : e.getClass().getSimpleName();
                errors.computeIfAbsent(what + " on " + port + " (" + kind.name() + ")", x -> new LongAdder()).increment();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) { // a bug here must show, not silently end this client
                errors.computeIfAbsent("client failure " + e + " (" + kind.name() + ")", x -> new LongAdder()).increment();
            }
            if (options.thinkMs() > 0) {
                try {
                    Thread.sleep(options.thinkMs());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private static int pooled(HttpClient http, int port, String target) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + target))
                .timeout(Duration.ofSeconds(30)).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** One request on its own connection, HTTP/1.0 without keep-alive: the body ends when the server closes. */
    private static int http10(int port, String target) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.ISO_8859_1);
            if (!text.startsWith("HTTP/1.") || text.length() < 12) throw new IOException("no HTTP answer: '" + text.lines().findFirst().orElse("") + "'");
            int headEnd = text.indexOf("\r\n\r\n");
            if (headEnd < 0) throw new IOException("answer cut inside the headers");
            java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?im)^content-length: *(\\d+)").matcher(text.substring(0, headEnd));
            if (length.find() && text.length() - headEnd - 4 < Integer.parseInt(length.group(1)))
                throw new IOException("answer cut inside the body");
            return Integer.parseInt(text.substring(9, 12));
        }
    }

    private void sample(long start) {
        Optional<ProcStatus> status = options.pid() > 0 ? ProcReader.SYSTEM.status(options.pid()) : Optional.empty(); // empty: no /proc, or the process is gone
        long rss = status.map(ProcStatus::rssKb).orElse(-1L);
        long threads = status.map(s -> (long) s.threads()).orElse(-1L);
        synchronized (samples) {
            samples.add(new long[] {(System.nanoTime() - start) / 1_000_000_000L, rss, threads});
        }
    }

    private long count(String statusClass) {
        LongAdder n = byClass.get(statusClass);
        return n == null ? 0 : n.sum();
    }

    private String classes() {
        StringBuilder out = new StringBuilder();
        for (String c : List.of("2xx", "3xx", "4xx", "5xx")) {
            LongAdder n = byClass.get(c);
            if (n != null || !c.equals("3xx")) out.append(out.isEmpty() ? "" : ", ").append(c).append(' ').append(n == null ? 0 : n.sum());
        }
        return out.toString();
    }

    private static long total(Map<String, LongAdder> m) {
        return m.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private Result report() {
        long[] first = samples.get(0);
        long[] last = samples.get(samples.size() - 1);
        long[] warm = first;
        long rssMax = 0;
        long threadsMax = 0;
        for (long[] s : samples) {
            if (s[0] <= options.warmupSeconds()) warm = s;
            else {
                rssMax = Math.max(rssMax, s[1]);
                threadsMax = Math.max(threadsMax, s[2]);
            }
        }
        long answered = total(byClass);
        long fiveXX = byClass.getOrDefault("5xx", new LongAdder()).sum();
        long connectionErrors = total(errors);
        long wrong = total(unexpected);
        long unaccounted = sent.sum() - answered - connectionErrors;
        out.println();
        out.printf("requests sent:       %d (%.0f/s)%n", sent.sum(), sent.sum() / (double) Math.max(1, options.seconds()));
        out.printf("answered:            %d: %s%n", answered, classes());
        out.printf("unexpected answers:  %d%s%n", wrong, wrong == 0 ? "" : " " + top(unexpected));
        out.printf("connection errors:   %d%s%n", connectionErrors, connectionErrors == 0 ? "" : " " + top(errors));
        if (options.pid() > 0) {
            out.printf("RSS:                 %d MB at start, %d MB after warm-up (%d s), %d MB peak after, %d MB at the end%n",
                    first[1] / 1024, warm[1] / 1024, warm[0], rssMax / 1024, last[1] / 1024);
            out.printf("threads:             %d at start, %d after warm-up, %d peak after, %d at the end%n",
                    first[2], warm[2], threadsMax, last[2]);
        }
        out.println();
        List<ReliabilityRun.Check> checks = new ArrayList<>();
        checks.add(check(fiveXX == 0, "no-5xx", fiveXX + " answers 5xx"));
        checks.add(check(wrong == 0, "expected-statuses", wrong + " answers not what the request deserved"));
        checks.add(check(connectionErrors == 0, "no-connection-errors", connectionErrors + " connection errors or timeouts"));
        checks.add(check(unaccounted == 0, "every-request-accounted", unaccounted + " requests sent with neither answer nor error"));
        for (int port : options.ports()) {
            long n = answeredByPort.getOrDefault(port, new LongAdder()).sum();
            checks.add(check(n > 0, "port-" + port + "-answers", n + " answers"));
        }
        if (options.pid() > 0) {
            long rssLimit = Math.round(warm[1] * (1 + options.rssTolerance()));
            checks.add(check(last[1] > 0 && last[1] <= rssLimit, "rss-flat",
                    String.format(Locale.ROOT, "%d MB at the end, limit %d MB (after warm-up %d MB + %.0f%%)", last[1] / 1024, rssLimit / 1024,
                            warm[1] / 1024, options.rssTolerance() * 100)));
            checks.add(check(last[2] > 0 && last[2] <= warm[2] + options.threadTolerance(), "threads-flat",
                    last[2] + " at the end, limit " + (warm[2] + options.threadTolerance()) + " (after warm-up " + warm[2] + " + " + options.threadTolerance() + ")"));
        }
        int passed = (int) checks.stream().filter(ReliabilityRun.Check::passed).count();
        long mb = 1024;
        boolean sampled = options.pid() > 0;
        List<Object> row = List.of(options.seconds(), options.ports().stream().map(String::valueOf).collect(Collectors.joining(" ")), options.clientsPerPort(),
                options.thinkMs(), options.warmupSeconds(), sent.sum(), Math.round(sent.sum() / (double) Math.max(1, options.seconds())), answered, count("2xx"),
                count("4xx"), fiveXX, wrong, connectionErrors, unaccounted, sampled ? first[1] / mb : "", sampled ? warm[1] / mb : "",
                sampled ? rssMax / mb : "", sampled ? last[1] / mb : "", sampled ? first[2] : "", sampled ? warm[2] : "",
                sampled ? threadsMax : "", sampled ? last[2] : "", passed, checks.size() - passed);
        return new Result(List.copyOf(checks), String.join(",", CSV_COLUMNS) + "\n" + row.stream().map(String::valueOf).collect(Collectors.joining(",")) + "\n");
    }

    private static ReliabilityRun.Check check(boolean passed, String name, String detail) {
        return new ReliabilityRun.Check(passed, name, detail);
    }

    private static String top(Map<String, LongAdder> m) {
        StringBuilder out = new StringBuilder("(");
        m.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum())).limit(5)
                .forEach(e -> out.append(out.length() > 1 ? "; " : "").append(e.getValue().sum()).append("x ").append(e.getKey()));
        return out.append(")").toString();
    }
}
