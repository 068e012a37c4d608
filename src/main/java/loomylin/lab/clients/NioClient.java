package loomylin.lab.clients;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * {@code --model nio}: one platform thread and one selector drive every connection (as the echo seed's
 * NioEchoClient): a connection whose answer is in gets its next request written straight away.
 */
final class NioClient implements Model {
    /** What the selector keeps per connection. */
    private static final class Connection {
        final ResponseReader reader = new ResponseReader();
        ByteBuffer out;
    }

    private Selector selector;
    private Thread loop;

    @Override
    public void prepare(List<SocketChannel> connections, Target target, Run run) {
        try {
            selector = Selector.open();
            for (SocketChannel c : connections) {
                c.configureBlocking(false);
                c.register(selector, 0, new Connection());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        loop = Thread.ofPlatform().name("nio-client").daemon().start(() -> drive(connections.size(), target, run));
    }

    private void drive(int count, Target target, Run run) {
        ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024); // one thread reads, so one buffer serves every connection
        int open = count;
        try {
            run.awaitGo();
            for (SelectionKey key : selector.keys()) {
                if (!send(key, target, run)) open--;
            }
            while (open > 0) {
                selector.select();
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) continue;
                    if (!(key.isWritable() ? write(key, run) : read(key, in, target, run))) open--;
                }
                selector.selectedKeys().clear();
            }
        } catch (InterruptedException | ClosedSelectorException e) {
            // closed before every connection ended; the run counts those as unfinished
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts writing the request; false if the connection ended. */
    private static boolean send(SelectionKey key, Target target, Run run) {
        ((Connection) key.attachment()).out = target.requestBytes();
        return write(key, run);
    }

    /** Writes what it can; waits for the answer once the request is out, for writability otherwise. */
    private static boolean write(SelectionKey key, Run run) {
        Connection c = (Connection) key.attachment();
        try {
            ((SocketChannel) key.channel()).write(c.out);
        } catch (IOException e) {
            return end(key, run, e);
        }
        key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        return true;
    }

    /** Reads what arrived; on a whole answer sends the next request, or ends the connection if the run is stopping. */
    private static boolean read(SelectionKey key, ByteBuffer in, Target target, Run run) {
        Connection c = (Connection) key.attachment();
        try {
            in.clear();
            if (((SocketChannel) key.channel()).read(in) < 0) throw new EOFException("target closed the connection");
            int status = c.reader.feed(in.flip());
            if (status == 0) return true;
            run.answered(status);
        } catch (IOException e) {
            return end(key, run, e);
        }
        if (!run.stopping()) return send(key, target, run);
        key.cancel();
        run.done();
        return false;
    }

    private static boolean end(SelectionKey key, Run run, IOException cause) {
        key.cancel();
        run.lost(cause);
        return false;
    }

    @Override
    public void close() {
        if (loop != null) loop.interrupt();
        try {
            if (selector != null) selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
