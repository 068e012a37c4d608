package loomylin.server.web;

import io.javalin.http.Context;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;

/**
 * Sends the first {@code n} bytes of a file as an {@code application/octet-stream} body with its length,
 * streamed in chunks of at most {@link #CHUNK} bytes: never more than one chunk in memory per request.
 * The file is opened per request, as the fibers-server seed did, and read from position 0.
 */
public final class FileBody {
    public static final int CHUNK = 64 * 1024;
    public static final String TYPE = "application/octet-stream";

    private FileBody() {
    }

    /** Reads with a {@link FileChannel} on the calling thread, so the request thread waits for every read. */
    public static void send(Context ctx, Path file, int n) throws IOException {
        OutputStream out = start(ctx, n);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(chunk(n));
            for (long position = 0; position < n; ) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), n - position));
                int read = channel.read(buffer, position);
                if (read < 0) throw new EOFException("data file ended at byte " + position + " of " + n);
                out.write(buffer.array(), 0, read);
                position += read;
            }
        }
    }

    /**
     * Reads with an {@link AsynchronousFileChannel}: no request thread waits for a read. Each chunk is written
     * to the response by the thread that completed its read (the JDK's file-channel pool), and the next read
     * starts after that write; the future completes when all {@code n} bytes are written.
     */
    public static CompletableFuture<Void> sendAsync(Context ctx, Path file, int n) {
        try {
            OutputStream out = start(ctx, n);
            if (n == 0) return CompletableFuture.completedFuture(null);
            Chunks chunks = new Chunks(AsynchronousFileChannel.open(file, StandardOpenOption.READ), out, n);
            chunks.next(0);
            return chunks.done;
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static OutputStream start(Context ctx, int n) throws IOException {
        ctx.contentType(TYPE);
        ctx.header("Content-Length", String.valueOf(n));
        return ctx.res().getOutputStream(); // the servlet's own stream: random bytes are not worth compressing
    }

    private static int chunk(int n) {
        return Math.max(1, Math.min(CHUNK, n));
    }

    /** One read in flight at a time; the attachment is the position it read from. */
    private static final class Chunks implements CompletionHandler<Integer, Long> {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private final AsynchronousFileChannel channel;
        private final OutputStream out;
        private final int n;
        private final ByteBuffer buffer;

        Chunks(AsynchronousFileChannel channel, OutputStream out, int n) {
            this.channel = channel;
            this.out = out;
            this.n = n;
            this.buffer = ByteBuffer.allocate(chunk(n));
        }

        void next(long position) {
            if (position >= n) {
                close();
                done.complete(null);
                return;
            }
            buffer.clear().limit((int) Math.min(buffer.capacity(), n - position));
            channel.read(buffer, position, position, this);
        }

        @Override
        public void completed(Integer read, Long position) {
            if (read < 0) {
                failed(new EOFException("data file ended at byte " + position + " of " + n), position);
                return;
            }
            try {
                out.write(buffer.array(), 0, read);
            } catch (IOException | RuntimeException e) {
                failed(e, position);
                return;
            }
            next(position + read);
        }

        @Override
        public void failed(Throwable e, Long position) {
            close();
            done.completeExceptionally(e);
        }

        private void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was written through it; a failed close loses nothing
            }
        }
    }
}
