package loomylin.lab.clients;

import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import loomylin.server.cli.StartupFailure;

/** {@code --model threads}: a platform thread per connection, each running {@link BlockingConnection}. */
final class ThreadsClient implements Model {
    private final List<Thread> threads = new ArrayList<>();

    @Override
    public void prepare(List<SocketChannel> connections, Target target, Run run) {
        Thread.Builder builder = Thread.ofPlatform().name("client-", 0).daemon();
        for (SocketChannel c : connections) {
            try {
                threads.add(builder.start(new BlockingConnection(c, target, run)));
            } catch (OutOfMemoryError e) { // "unable to create native thread": the seed's failure at 35,000
                close();
                throw new StartupFailure("could start only " + threads.size() + " of " + connections.size() + " platform threads: " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        threads.forEach(Thread::interrupt);
    }
}
