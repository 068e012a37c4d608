package loomylin.lab.engine.run;

import java.util.List;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.StandardOpenOption;
import loomylin.server.cli.DataFile;
import loomylin.server.web.FileBody;
import loomylin.server.web.Limits;
import loomylin.server.web.Sha256Loop;

/**
 * How fast this machine does /mixed's two kinds of work, measured at the start of {@code bench --preset seed004}
 * in the bench JVM (same JDK as the servers): SHA-256 iterations per ms of one core, and data-file bytes per ms
 * of serving them: read with a {@link FileChannel} in {@link FileBody#CHUNK} chunks from the page cache, as
 * /mixed reads, and written to a loopback socket whose other end discards them. The I/O share of a request is
 * the time its handler spends on the file, and a body is sent as well as read: timing the reads alone (about
 * 5 GB/s here) turned experiment 1's 15 % of 10 ms into a 7.6 MB body whose sending took several times longer
 * than the whole request should. Each figure is the best of several timed passes after a warm-up, so a busy
 * moment on the machine counts less.
 */
public record Calibration(double iterationsPerMs, double fileBytesPerMs) {
    public static final int PASSES = 5;

    public static Calibration measure() throws IOException {
        Sha256Loop.run(50_000); // JIT warm-up
        double iterationsPerMs = 0;
        for (int i = 0; i < PASSES; i++) {
            long start = System.nanoTime();
            Sha256Loop.run(20_000);
            iterationsPerMs = Math.max(iterationsPerMs, 20_000 / ((System.nanoTime() - start) / 1e6));
        }
        double bytesPerMs = 0;
        try (DataFile file = DataFile.create(null, Limits.DATA_FILE_BYTES_DEFAULT);
             FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.READ);
             ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel socket = SocketChannel.open(listener.getLocalAddress());
             SocketChannel peer = listener.accept()) {
            Thread discard = Thread.ofPlatform().name("calibration-discard").daemon().start(() -> discard(peer));
            ByteBuffer buffer = ByteBuffer.allocate(FileBody.CHUNK);
            for (int i = 0; i <= PASSES; i++) { // the first pass fills the page cache
                long start = System.nanoTime();
                for (long position = 0; position < file.bytes(); ) {
                    buffer.clear();
                    position += channel.read(buffer, position);
                    buffer.flip();
                    while (buffer.hasRemaining()) socket.write(buffer);
                }
                if (i > 0) bytesPerMs = Math.max(bytesPerMs, file.bytes() / ((System.nanoTime() - start) / 1e6));
            }
            socket.shutdownOutput();
            discard.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("calibration interrupted");
        }
        return new Calibration(iterationsPerMs, bytesPerMs);
    }

    private static void discard(SocketChannel peer) {
        ByteBuffer sink = ByteBuffer.allocate(FileBody.CHUNK);
        try {
            while (peer.read(sink.clear()) >= 0) {
                // the bytes are only there to be sent
            }
        } catch (IOException closed) {
            // the calibration is over
        }
    }

    /** A request's time split into sleep, file I/O and CPU, shares of 1: the fibers-server seed's requests. */
    public record Mix(String name, double sleepShare, double ioShare, double cpuShare) {
    }

    /** The fibers-server seed's two request mixes, which its experiments and the bound's loads send. */
    public static final List<Mix> FIBERS_SEED_MIXES = List.of(
            new Mix("Experiment 1: 80 % sleep, 15 % I/O, 5 % CPU", 0.80, 0.15, 0.05),
            new Mix("Experiment 2: 95 % sleep, 4 % I/O, 1 % CPU", 0.95, 0.04, 0.01));

    /** The /mixed query for a request of {@code ms} split as {@code mix} says; file bytes capped at {@code fileCap}. */
    public String query(Mix mix, int ms, int fileCap) {
        long cpu = Math.round(mix.cpuShare() * ms * iterationsPerMs);
        long sleep = Math.round(mix.sleepShare() * ms);
        long file = Math.min(fileCap, Math.round(mix.ioShare() * ms * fileBytesPerMs));
        return "mixed?cpu=" + Math.min(cpu, Limits.CPU_MAX) + "&sleep=" + sleep + "&file=" + file;
    }

    /** How many ms of this machine's serving {@code bytes} are: what a capped file part really is. */
    public double readMs(long bytes) {
        return bytes / fileBytesPerMs;
    }
}
