package loomylin.server.admin;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import loomylin.server.jfr.PinPlace;

/**
 * Virtual threads pinned to their carrier in this JVM: every {@code jdk.VirtualThreadPinned} event (JDK Flight
 * Recorder, streamed in-process, threshold {@link PinPlace#THRESHOLD}: every pin, however short), counted and timed,
 * and where they pinned ({@link PinPlace#of}, the most frequent {@link #STACKS} kept).
 * A virtual thread pins when it blocks where it cannot leave its carrier: inside {@code synchronized} on JDK 21
 * and older, in native code or a class initialiser on every JDK. A pinned count that moves is what to watch:
 * each pin holds one of the few carriers for as long as it blocks.
 *
 * <p>Runs while the admin port runs; where the JDK has no Flight Recorder ({@code jdk.jfr} missing), {@link #read}
 * says it does not know.
 */
final class PinnedThreads implements AutoCloseable {
    static final int STACKS = 5;

    /** One reading. {@code known} false: no Flight Recorder here, every figure 0. */
    record Reading(boolean known, long pinned, double seconds, List<String> where) {
    }

    private final RecordingStream stream;
    private final LongAdder pinned = new LongAdder();
    private final LongAdder nanos = new LongAdder();
    private final Map<String, LongAdder> stacks = new ConcurrentHashMap<>();

    private PinnedThreads(RecordingStream stream) {
        this.stream = stream;
    }

    static PinnedThreads start() {
        RecordingStream stream;
        try {
            stream = new RecordingStream();
        } catch (RuntimeException | LinkageError e) {
            return new PinnedThreads(null); // no Flight Recorder in this runtime
        }
        PinnedThreads p = new PinnedThreads(stream);
        stream.enable(PinPlace.EVENT).withThreshold(PinPlace.THRESHOLD).withStackTrace();
        stream.setMaxAge(Duration.ofSeconds(10));
        stream.onEvent(PinPlace.EVENT, p::record);
        stream.startAsync();
        return p;
    }

    private void record(RecordedEvent e) {
        pinned.increment();
        nanos.add(e.getDuration().toNanos());
        String where = PinPlace.of(e);
        if (stacks.size() < 1000 || stacks.containsKey(where)) stacks.computeIfAbsent(where, k -> new LongAdder()).increment();
    }

    /** The figures, with the {@link #STACKS} most frequent places. */
    Reading read() {
        return read(STACKS);
    }

    /** The figures, with the {@code most} most frequent places. */
    Reading read(int most) {
        if (stream == null) return new Reading(false, 0, 0, List.of());
        List<String> top = stacks.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, LongAdder> x) -> x.getValue().sum()).reversed())
                .limit(most).map(x -> x.getValue().sum() + " x " + x.getKey()).toList();
        return new Reading(true, pinned.sum(), nanos.sum() / 1e9, top);
    }

    @Override
    public void close() {
        if (stream != null) stream.close();
    }
}
