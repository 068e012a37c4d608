package loomylin.server.jetty.internal;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Jetty;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import org.junit.jupiter.api.Test;

/**
 * The fence around Jetty's internals: fails loudly, naming the files to re-check, when the Jetty on the
 * class path is not the one they were checked against, and checks on a real connector that what they rely on
 * still works.
 */
class JettyInternalsTest {

    @Test
    void jettyIsTheVersionTheInternalsWereCheckedAgainst() {
        assertEquals(Connectors.CHECKED_JETTY_VERSION, Jetty.VERSION,
                "Jetty is now " + Jetty.VERSION + ", but loomylin.server.jetty.internal was checked against " + Connectors.CHECKED_JETTY_VERSION
                        + ": re-read " + Connectors.FILES_TO_RECHECK + " against the new Jetty sources, then update Connectors.CHECKED_JETTY_VERSION");
    }

    /**
     * The agent's advice ({@link JettyServerHook}) takes this Jetty and no other: 12.1.x, whose {@code Server} has the
     * constructor every other ends in. {@code AgentTest} proves on real applications that the pool put there is the one
     * that runs.
     */
    @Test
    void theAgentServesThisJettyAndNoOther() throws Exception {
        assertTrue(JettyServerHook.supports(Jetty.VERSION), Jetty.VERSION);
        assertEquals(Jetty.VERSION, JettyServerHook.version(Server.class));
        for (String other : new String[] {"12.0.16", "11.0.24", "12.10.0", "12.1", ""}) assertFalse(JettyServerHook.supports(other), other);
        assertFalse(JettyServerHook.supports(null));
        Server.class.getConstructor(org.eclipse.jetty.util.thread.ThreadPool.class, org.eclipse.jetty.util.thread.Scheduler.class,
                org.eclipse.jetty.io.ByteBufferPool.class);
    }

    /**
     * A request holds its handler while a large pipelined follow-up sits partly unread in the socket: the
     * connection the fenced connector made is a {@link PatientHttpConnection}, and it can count those bytes
     * (if the JDK path behind the count broke, it would read 0 and the protection would be off).
     */
    @Test
    void theConnectorMakesPatientConnectionsThatCountUnreadBytes() throws Exception {
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Server server = new Server(new QueuedThreadPool(4, 4));
        ServerConnector connector = Connectors.create(server, 1, new HttpConfiguration(), 0);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        AtomicReference<Connection> opened = new AtomicReference<>();
        connector.addBean(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                opened.set(connection);
            }
        });
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                handling.countDown();
                release.await(10, TimeUnit.SECONDS);
                callback.succeeded();
                return true;
            }
        });
        server.start();
        try (Socket client = new Socket("127.0.0.1", connector.getLocalPort())) {
            OutputStream out = client.getOutputStream();
            out.write("GET /first HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertTrue(handling.await(10, TimeUnit.SECONDS), "the first request reached its handler");
            out.write(("GET /second HTTP/1.1\r\nHost: x\r\nX-Pad: " + "p".repeat(100_000) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            PatientHttpConnection connection = assertInstanceOf(PatientHttpConnection.class, opened.get());
            await().atMost(Duration.ofSeconds(10)).until(() -> connection.unreadBytes() > 0);
        } finally {
            release.countDown();
            server.stop();
        }
    }

    /**
     * A capped VirtualThreadPool keeps its cap as a Semaphore bean: with more blocked tasks than permits,
     * {@link TaskPermits} sees the cap's worth running and the rest waiting (if Jetty stopped keeping the bean,
     * the capacity figures would silently vanish).
     */
    @Test
    void taskPermitsSeeACappedPoolsTasksRunningAndWaiting() throws Exception {
        VirtualThreadPool pool = new VirtualThreadPool(2);
        pool.start();
        CountDownLatch release = new CountDownLatch(1);
        try {
            for (int i = 0; i < 5; i++) pool.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> TaskPermits.of(pool).map(p -> p.waiting() == 3).orElse(false));
            assertEquals(new TaskPermits(2, 2, 3), TaskPermits.of(pool).orElseThrow());
        } finally {
            release.countDown();
            pool.stop();
        }
    }

    /**
     * Jetty 12.1.14's capped VirtualThreadPool releases a permit in the {@code InterruptedException} path of
     * {@code acquire()} (its {@code execute} lambda is {@code try { acquire(); run(); } finally { release(); }}), so
     * each waiter interrupted before it got a permit raises the cap by one. Loomylin never interrupts a
     * VirtualThreadPool's waiters (its stop leaves them to the graceful stop, GracefulStop), and {@link TaskPermits}
     * clamps its reading at 0 free permits. When this test fails, Jetty has fixed it: drop the clamp's comment.
     */
    @Test
    void anInterruptedPermitWaiterRaisesACappedPoolsCapByOne() throws Exception {
        java.util.Queue<Thread> threads = new java.util.concurrent.ConcurrentLinkedQueue<>();
        VirtualThreadPool pool = new VirtualThreadPool(2);
        pool.setVirtualThreadsExecutor(java.util.concurrent.Executors.newThreadPerTaskExecutor(task -> {
            Thread t = Thread.ofVirtual().unstarted(task);
            threads.add(t);
            return t;
        }));
        pool.start();
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger mostAtOnce = new java.util.concurrent.atomic.AtomicInteger();
        Runnable hold = () -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
        };
        try {
            pool.execute(hold);
            pool.execute(hold);
            await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 2);
            pool.execute(hold); // waits for a permit
            await().atMost(Duration.ofSeconds(10)).until(() -> TaskPermits.of(pool).map(p -> p.waiting() == 1).orElse(false));
            Thread waiter = threads.stream()
                    .filter(t -> java.util.Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("java.util.concurrent.Semaphore")))
                    .findFirst().orElseThrow();
            waiter.interrupt();
            await().atMost(Duration.ofSeconds(10)).until(() -> !waiter.isAlive());
            pool.execute(hold); // with the cap honoured, this one would wait
            await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 3);
            assertEquals(3, mostAtOnce.get(), "a pool capped at 2 ran 3 tasks at once after one waiter was interrupted");
        } finally {
            release.countDown();
            pool.stop();
        }
    }

    /**
     * The header deadline reads the connection's parser state and Jetty's count of requests whose headers are
     * complete: on a bare fenced connector, headers sent a line at a time get the 408 (if either read broke, the
     * connection would stay open and this would time out), while a complete request on the same kind of
     * connection is served.
     */
    @Test
    void theHeaderDeadlineCutsHeadersThatNeverEnd() throws Exception {
        Server server = new Server(new QueuedThreadPool(8, 4));
        ServerConnector connector = Connectors.create(server, 1, new HttpConfiguration(), 300);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(204);
                callback.succeeded();
                return true;
            }
        });
        server.start();
        try (Socket client = new Socket("127.0.0.1", connector.getLocalPort())) {
            client.setSoTimeout(100);
            OutputStream out = client.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            StringBuilder answers = new StringBuilder();
            for (int line = 0; line < 100 && !answers.toString().contains("408"); line++) { // 10 s at most
                out.write(("X-Line-" + line + ": x\r\n").getBytes(StandardCharsets.US_ASCII));
                try {
                    byte[] buffer = new byte[4096];
                    int n = client.getInputStream().read(buffer);
                    if (n < 0) break;
                    answers.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
                } catch (java.net.SocketTimeoutException stillOpen) {
                    // the next line
                }
            }
            assertTrue(answers.toString().startsWith("HTTP/1.1 204"), "the complete request was served: " + answers);
            assertTrue(answers.toString().contains("HTTP/1.1 408 Request Timeout"), "the endless one got the 408: " + answers);
        } finally {
            server.stop();
        }
    }
}
