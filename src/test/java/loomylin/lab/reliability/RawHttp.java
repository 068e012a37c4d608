package loomylin.lab.reliability;

import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;

/**
 * HTTP/1.1 over a plain socket, so a test sees exactly what went over the wire: a complete answer, an
 * answer cut short, a reset, or silence. No client library smooths anything over.
 */
final class RawHttp {
    private RawHttp() {
    }

    /** One parsed answer. {@code headers} keys are lower case. */
    record Answer(int status, String statusLine, Map<String, List<String>> headers, String body, long millis) {
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        boolean has(String name) {
            return headers.containsKey(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String toString() {
            return statusLine + " " + headers + " body=" + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }

    /** What reading one answer came to: exactly one of answer and failure is set. */
    record Outcome(Answer answer, String failure) {
        boolean complete() {
            return answer != null;
        }

        int status() {
            return answer == null ? -1 : answer.status();
        }

        /** A short name for counting: "200", "503", "reset", "eof", "timeout", "refused", "io". */
        String kind() {
            return answer != null ? String.valueOf(answer.status()) : failure.split(":", 2)[0];
        }

        @Override
        public String toString() {
            return answer != null ? answer.toString() : failure;
        }
    }

    static Socket connect(int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int) Math.max(1, timeout.toMillis()));
            socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** {@code GET target} on a fresh connection with {@code Connection: close}. */
    static Answer get(int port, String target) throws IOException {
        return get(port, target, Duration.ofSeconds(30));
    }

    static Answer get(int port, String target, Duration timeout) throws IOException {
        return exchange(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n", timeout);
    }

    /** Sends the raw bytes, reads one answer. */
    static Answer exchange(int port, String request, Duration timeout) throws IOException {
        return exchange(port, request.getBytes(StandardCharsets.UTF_8), timeout);
    }

    static Answer exchange(int port, byte[] request, Duration timeout) throws IOException {
        long start = System.nanoTime();
        try (Socket socket = connect(port, timeout)) {
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            return read(socket.getInputStream(), start);
        }
    }

    /** Like {@link #exchange} but never throws: the failure becomes the outcome. */
    static Outcome attempt(int port, String request, Duration timeout) {
        try {
            return new Outcome(exchange(port, request, timeout), null);
        } catch (IOException e) {
            return new Outcome(null, classify(e));
        }
    }

    static String classify(IOException e) {
        String m = String.valueOf(e.getMessage());
        if (e instanceof java.net.ConnectException) return "refused: " + m;
        if (e instanceof SocketTimeoutException) return "timeout: " + m;
        if (e instanceof EOFException) return "eof: " + m;
        if (e instanceof SocketException && m.toLowerCase(Locale.ROOT).contains("reset")) return "reset: " + m;
        return "io: " + e;
    }

    /** Reads one answer: status line, headers, then a body framed by Content-Length, chunks, or the close. */
    static Answer read(InputStream in, long startNanos) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) throw new EOFException("connection closed before any answer");
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) throw new IOException("not an HTTP status line: " + statusLine);
        int status = Integer.parseInt(parts[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String h = line(in); ; h = line(in)) {
            if (h == null) throw new EOFException("connection closed inside the headers");
            if (h.isEmpty()) break;
            int colon = h.indexOf(':');
            headers.computeIfAbsent(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(h.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<String> length = headers.get("content-length");
        List<String> encoding = headers.get("transfer-encoding");
        if (length != null) {
            long n = Long.parseLong(length.get(0));
            copy(in, body, n);
        } else if (encoding != null && encoding.get(0).equalsIgnoreCase("chunked")) {
            for (; ; ) {
                String size = line(in);
                if (size == null) throw new EOFException("connection closed inside a chunked body");
                long n = Long.parseLong(size.split(";")[0].trim(), 16);
                if (n == 0) {
                    while (true) {
                        String trailer = line(in);
                        if (trailer == null || trailer.isEmpty()) break;
                    }
                    break;
                }
                copy(in, body, n);
                line(in);
            }
        } else if (status >= 200 && status != 204 && status != 304) {
            in.transferTo(body); // HTTP/1.0 style: the body ends when the connection does
        }
        return new Answer(status, statusLine, headers, body.toString(StandardCharsets.UTF_8), (System.nanoTime() - startNanos) / 1_000_000);
    }

    private static void copy(InputStream in, ByteArrayOutputStream body, long n) throws IOException {
        byte[] buffer = new byte[8192];
        while (n > 0) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, n));
            if (read < 0) throw new EOFException("connection closed with " + n + " bytes of the body missing");
            body.write(buffer, 0, read);
            n -= read;
        }
    }

    /** One CRLF-terminated line as ISO-8859-1, without the CRLF; null at end of stream before any byte. */
    private static String line(InputStream in) throws IOException {
        StringBuilder out = new StringBuilder();
        for (; ; ) {
            int b = in.read();
            if (b < 0) return out.isEmpty() ? null : out.toString();
            if (b == '\n') {
                int end = out.length();
                if (end > 0 && out.charAt(end - 1) == '\r') out.setLength(end - 1);
                return out.toString();
            }
            out.append((char) b);
            if (out.length() > 65536) throw new IOException("line too long");
        }
    }

    /**
     * Polls /pool until only that /pool request is in flight (the server finishes its bookkeeping a moment
     * after the client has the last byte), at most {@code within}; returns the last /pool body.
     */
    static String awaitOnlyPoolInFlight(int port, Duration within) {
        AtomicReference<String> body = new AtomicReference<>("");
        try {
            await().atMost(within).pollInterval(Duration.ofMillis(20)).until(() -> {
                body.set(get(port, "/pool").body());
                return body.get().contains("\"inFlight\":1,");
            });
        } catch (ConditionTimeoutException e) {
            // the caller's assertions on the last body say what stayed in flight
        }
        return body.get();
    }

    /** After an answer: waits for the server to close the connection; true if it did within the time. */
    static boolean closedByServer(Socket socket, Duration within) throws IOException {
        socket.setSoTimeout((int) within.toMillis());
        try {
            byte[] b = new byte[4096];
            while (true) {
                if (socket.getInputStream().read(b) < 0) return true;
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset also means closed
        }
    }

    /** What a drip-fed request came to: the answer (null if the server closed without one) and when it came. */
    record Dripped(Answer answer, long millis, int linesSent) {
        int status() {
            return answer == null ? -1 : answer.status();
        }
    }

    /**
     * Sends {@code head} (a request line, perhaps a few headers), then one more header line every {@code everyMs},
     * never ending the headers, until the server answers or closes the connection; gives up after {@code atMost}
     * (then the outcome has no answer and {@code millis} is at least {@code atMost}).
     */
    static Dripped dripHeaders(int port, String head, int everyMs, Duration atMost) throws IOException {
        long start = System.nanoTime();
        try (Socket s = connect(port, Duration.ofSeconds(10))) {
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.setSoTimeout(everyMs);
            java.io.PushbackInputStream in = new java.io.PushbackInputStream(s.getInputStream(), 1);
            int lines = 0;
            while (System.nanoTime() - start < atMost.toNanos()) {
                try {
                    out.write(("X-Drip-" + lines + ": x\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    lines++;
                } catch (IOException closed) {
                    // the server closed its side: whatever it sent before is still there to read
                }
                int first;
                try {
                    first = in.read();
                } catch (SocketTimeoutException stillOpen) {
                    continue;
                } catch (SocketException reset) {
                    return new Dripped(null, (System.nanoTime() - start) / 1_000_000, lines);
                }
                long millis = (System.nanoTime() - start) / 1_000_000;
                if (first < 0) return new Dripped(null, millis, lines);
                in.unread(first);
                s.setSoTimeout(10_000);
                return new Dripped(read(in, start), millis, lines);
            }
            return new Dripped(null, (System.nanoTime() - start) / 1_000_000, lines);
        }
    }
}
