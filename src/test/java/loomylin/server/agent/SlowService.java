package loomylin.server.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The slow thing the test applications' routes wait on, as a real application waits on a database or another
 * service: a loopback socket that answers each caller one byte after the milliseconds it asked for. The caller
 * blocks in a socket read; the waiting is done here, on this service's own daemon threads.
 */
public final class SlowService {
    private final ServerSocket socket;

    private SlowService(ServerSocket socket) {
        this.socket = socket;
    }

    /** Listens on a free loopback port until the JVM exits. */
    public static SlowService start() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        ExecutorService answers = Executors.newCachedThreadPool(task -> {
            Thread t = new Thread(task, "slow-service");
            t.setDaemon(true);
            return t;
        });
        Thread acceptor = new Thread(() -> {
            while (true) {
                try {
                    Socket caller = socket.accept();
                    answers.execute(() -> answer(caller));
                } catch (IOException e) {
                    return;
                }
            }
        }, "slow-service-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        return new SlowService(socket);
    }

    private static void answer(Socket caller) {
        try (caller) {
            String line = new BufferedReader(new InputStreamReader(caller.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            Thread.sleep(Long.parseLong(line.strip()));
            OutputStream out = caller.getOutputStream();
            out.write('.');
            out.flush();
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the caller gave up or sent nonsense: nothing to answer
        }
    }

    /** Asks for an answer in {@code ms} and blocks reading it, as a client of a slow service does. */
    public void call(long ms) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), socket.getLocalPort())) {
            s.getOutputStream().write((ms + "\n").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            if (in.read() < 0) throw new IOException("the slow service closed without answering");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
