package loomylin.lab.clients;

import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/** {@code --model virtual}: a virtual thread per connection, each running the same {@link BlockingConnection}. */
final class VirtualClient implements Model {
    private final List<Thread> threads = new ArrayList<>();

    @Override
    public void prepare(List<SocketChannel> connections, Target target, Run run) {
        Thread.Builder builder = Thread.ofVirtual().name("client-", 0);
        for (SocketChannel c : connections) threads.add(builder.start(new BlockingConnection(c, target, run)));
    }

    @Override
    public void close() {
        threads.forEach(Thread::interrupt);
    }
}
