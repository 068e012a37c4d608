package loomylin.lab.clients;

import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * One way of driving the open connections: {@link #prepare} sets everything up (threads, selector) before the
 * measured period; from {@link Run#go()} each connection sends a request, waits for its answer and sends the next
 * at once, until {@link Run#stopping()}; each connection then reports itself done to the run.
 */
interface Model extends AutoCloseable {

    void prepare(List<SocketChannel> connections, Target target, Run run);

    /** Ends whatever {@link #prepare} started; connections still driving are abandoned (their channels are closed by the caller). */
    @Override
    void close();

    static Model named(String name) {
        return switch (name) {
            case "nio" -> new NioClient();
            case "threads" -> new ThreadsClient();
            case "virtual" -> new VirtualClient();
            default -> throw new IllegalArgumentException(name);
        };
    }

    List<String> NAMES = List.of("nio", "threads", "virtual");
}
