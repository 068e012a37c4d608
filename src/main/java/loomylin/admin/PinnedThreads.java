package loomylin.admin;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

/**
 * Virtual threads pinned to their carrier in this JVM: every {@code jdk.VirtualThreadPinned} event (JDK Flight
 * Recorder, streamed in-process, threshold {@link #THRESHOLD}: every pin, however short), counted and timed, and
 * where they pinned (the top application frames of each event's stack, the most frequent {@link #STACKS} kept).
 * A virtual thread pins when it blocks where it cannot leave its carrier: inside {@code synchronized} on JDK 21
 * and older, in native code or a class initialiser on every JDK. A pinned count that moves is what to watch:
 * each pin holds one of the few carriers for as long as it blocks.
 *
 * <p>Runs while the admin port runs; where the JDK has no Flight Recorder ({@code jdk.jfr} missing), {@link #read}
 * says it does not know.
 */
final class PinnedThreads implements AutoCloseable {
    static final String EVENT = "jdk.VirtualThreadPinned";
    static final Duration THRESHOLD = Duration.ZERO;
    static final int STACKS = 5;
    /** Frames of a stack that say where a pin came from: the first not in the JDK's own packages. */
    private static final int FRAMES = 3;

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
        stream.enable(EVENT).withThreshold(THRESHOLD).withStackTrace();
        stream.setMaxAge(Duration.ofSeconds(10));
        stream.onEvent(EVENT, p::record);
        stream.startAsync();
        return p;
    }

    private void record(RecordedEvent e) {
        pinned.increment();
        nanos.add(e.getDuration().toNanos());
        String where = where(e);
        if (stacks.size() < 1000 || stacks.containsKey(where)) stacks.computeIfAbsent(where, k -> new LongAdder()).increment();
    }

    /** The first {@link #FRAMES} frames of the stack outside java.*, jdk.* and sun.*, or the top frames when there are none. */
    static String where(RecordedEvent e) {
        if (e.getStackTrace() == null) return "(no stack)";
        List<RecordedFrame> frames = e.getStackTrace().getFrames();
        List<RecordedFrame> own = frames.stream().filter(f -> f.isJavaFrame() && !jdk(f.getMethod().getType().getName())).toList();
        return (own.isEmpty() ? frames : own).stream().limit(FRAMES)
                .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber())
                .collect(Collectors.joining(" < "));
    }

    private static boolean jdk(String type) {
        return type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.");
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
