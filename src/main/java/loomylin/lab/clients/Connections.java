package loomylin.lab.clients;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import loomylin.server.cli.StartupFailure;

/**
 * Opens the connections, one after the other, before anything is measured: blocking channels, each bound to the
 * next source address (if any), TCP_NODELAY. Fails with one line saying how many opened if the target refuses
 * one, having closed those.
 */
final class Connections {
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private Connections() {
    }

    static List<SocketChannel> open(Target target, int count, List<InetAddress> sources) {
        List<SocketChannel> open = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            try {
                open.add(connect(target.address(), sources.isEmpty() ? null : sources.get(i % sources.size())));
            } catch (IOException e) {
                closeAll(open);
                throw new StartupFailure("opened " + i + " of " + count + " connections to " + target.uri() + ", then: "
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage()));
            }
        }
        return open;
    }

    private static SocketChannel connect(InetSocketAddress target, InetAddress source) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.socket().setTcpNoDelay(true);
            if (source != null) channel.bind(new InetSocketAddress(source, 0));
            channel.socket().connect(target, CONNECT_TIMEOUT_MS);
            return channel;
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    static void closeAll(List<SocketChannel> channels) {
        for (SocketChannel c : channels) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
