package loomylin.server.jetty.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A stand-alone reproducer of Jetty's {@link QoSHandler} wedging when its requests run on virtual threads:
 * Jetty only (no Loomylin class), one file, fit to send upstream.
 *
 * <p>A server whose {@link QueuedThreadPool} runs requests on virtual threads, behind a {@code QoSHandler} of
 * {@code maxRequestCount} 36 and a 1 s {@code maxSuspend}; a handler that sleeps 1 ms. Each round is a burst of
 * 50 clients sending requests back to back on keep-alive connections for 1 s, then one probe request that must
 * be answered within 3 s. A server that misses the probe is wedged: the reproducer writes a JSON thread dump
 * (virtual threads included) and exits 3. A server that answers every probe exits 0; a run that does neither within
 * 30 s plus 10 s a round exits 4.
 *
 * <p>Run it (Jetty 12.1's jetty-server, jetty-http, jetty-io, jetty-util and slf4j-api on the class path):
 * <pre>
 * java -cp "$JETTY_JARS" QoSHandlerWedge.java [rounds] [dump-file]
 * </pre>
 * {@code QoSHandlerWedgeTest} runs it in child JVMs on every {@code ./mvnw verify}, on the JDK that runs the tests.
 *
 * <p>Why it wedges, from the dump (docs/reliability/qoshandler-wedge.md): a request that finds no permit
 * decrements the permit count, then queues its entry in {@code queues.compute(...)}, a
 * {@code ConcurrentHashMap} bin guarded by a monitor. A completing request that finds the count negative spins
 * in {@code resume()} ({@code Thread.onSpinWait()}) until that entry appears. Virtual threads are not
 * preempted, and since JDK 24 (JEP 491) a virtual thread that contends for a monitor leaves its carrier; when
 * every carrier runs a spinning {@code resume()}, the suspenders they wait for never get a carrier back.
 */
public final class QoSHandlerWedge {
    private static final int LIMIT = 36;
    private static final int CLIENTS = 50;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        Path dump = Path.of(args.length > 1 ? args[1] : "qos-wedge-threads.json");
        Thread.ofPlatform().daemon().start(() -> { // bounded: a run that neither wedges nor finishes ends with status 4
            try {
                Thread.sleep(Duration.ofSeconds(30L + 10L * rounds));
                System.out.println("DID NOT FINISH in " + (30 + 10 * rounds) + " s");
                System.out.flush();
                Runtime.getRuntime().halt(4);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        QueuedThreadPool pool = new QueuedThreadPool(8, 8);
        pool.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Server server = new Server(pool);
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        QoSHandler qos = new QoSHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Thread.sleep(1);
                response.write(true, StandardCharsets.US_ASCII.encode("ok"), callback);
                return true;
            }
        });
        qos.setMaxRequestCount(LIMIT);
        qos.setMaxSuspend(Duration.ofSeconds(1));
        server.setHandler(qos);
        server.start();
        int port = connector.getLocalPort();
        System.out.printf("Jetty %s, Java %s, %d carriers: QoSHandler(%d) before a 1 ms sleep on virtual threads, %d clients%n",
                Jetty.VERSION, Runtime.version(), Integer.getInteger("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors()), LIMIT, CLIENTS);

        for (int round = 1; round <= rounds; round++) {
            long answers = burst(port, "/", CLIENTS, Duration.ofSeconds(1));
            if (!probe(port, "/", Duration.ofSeconds(3))) {
                try {
                    Files.deleteIfExists(dump);
                    ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                            .dumpThreads(dump.toAbsolutePath().toString(), com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                } catch (IOException | RuntimeException e) {
                    System.out.println("could not dump the threads: " + e);
                }
                System.out.printf("WEDGED in round %d (%d answers in its burst): the probe got no answer in 3 s; %d suspended; threads: %s%n",
                        round, answers, qos.getSuspendedRequestCount(), dump.toAbsolutePath());
                System.out.flush();
                Runtime.getRuntime().halt(3); // the spinning threads would keep a stop from ever finishing
            }
            System.out.printf("round %d: %d answers, probe answered%n", round, answers);
        }
        server.stop();
        System.out.printf("NOT WEDGED in %d rounds%n", rounds);
    }

    /** {@code clients} keep-alive connections sending GET {@code path} back to back for {@code length}; the answers (any status) they got. */
    public static long burst(int port, String path, int clients, Duration length) throws InterruptedException {
        long end = System.nanoTime() + length.toNanos();
        long[] answers = new long[clients];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            int id = i;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    while (System.nanoTime() < end) {
                        try (Socket socket = connect(port, Duration.ofSeconds(2))) {
                            int answer;
                            do {
                                answer = exchange(socket, path);
                                if (answer >= 0) answers[id]++;
                            } while (answer == KEEP_ALIVE && System.nanoTime() < end);
                            if (answer == NONE) return; // no answer in time: this client's burst is over
                        }
                    }
                } catch (IOException e) {
                    // a refused or reset connection ends this client's burst
                }
            }));
        }
        for (Thread client : threads) client.join();
        long sum = 0;
        for (long a : answers) sum += a;
        return sum;
    }

    /** One GET {@code path} on a new connection: whether a whole answer (any status) came back within {@code timeout}. */
    public static boolean probe(int port, String path, Duration timeout) {
        try (Socket socket = connect(port, timeout)) {
            return exchange(socket, path) != NONE;
        } catch (IOException e) {
            return false;
        }
    }

    private static Socket connect(int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), (int) timeout.toMillis());
        socket.setSoTimeout((int) timeout.toMillis());
        return socket;
    }

    private static final int NONE = -1, CLOSE = 0, KEEP_ALIVE = 1;

    /** One GET on the connection: {@link #NONE} without a whole answer (any status) in time, else whether the connection stays open. */
    private static int exchange(Socket socket, String path) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        try {
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) return NONE;
                head.append((char) b);
            }
        } catch (SocketTimeoutException e) {
            return NONE;
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) length = Integer.parseInt(line.substring(15).trim());
        }
        if (in.readNBytes(length).length != length) return NONE;
        return head.toString().toLowerCase(java.util.Locale.ROOT).contains("connection: close") ? CLOSE : KEEP_ALIVE;
    }

    private QoSHandlerWedge() {
    }
}
