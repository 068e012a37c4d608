package loomylin.lab.clients;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One connection driven by one thread with blocking I/O: write the request, block until the whole answer is in,
 * repeat. The same code runs on a platform thread ({@link ThreadsClient}) or a virtual one ({@link VirtualClient}).
 */
final class BlockingConnection implements Runnable {
    private final SocketChannel channel;
    private final Target target;
    private final Run run;

    BlockingConnection(SocketChannel channel, Target target, Run run) {
        this.channel = channel;
        this.target = target;
        this.run = run;
    }

    @Override
    public void run() {
        ByteBuffer in = ByteBuffer.allocateDirect(1024);
        ResponseReader reader = new ResponseReader();
        try {
            run.awaitGo();
            do {
                ByteBuffer request = target.requestBytes();
                while (request.hasRemaining()) channel.write(request);
                int status = 0;
                while (status == 0) {
                    in.clear();
                    if (channel.read(in) < 0) throw new EOFException("target closed the connection");
                    status = reader.feed(in.flip());
                }
                run.answered(status);
            } while (!run.stopping());
            run.done();
        } catch (IOException e) {
            run.lost(e);
        } catch (InterruptedException e) {
            run.lost(e);
        }
    }
}
