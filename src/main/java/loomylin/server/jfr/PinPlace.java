package loomylin.server.jfr;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;

/**
 * JDK Flight Recorder's {@code jdk.VirtualThreadPinned}, read alike by the admin port (streamed in-process) and by
 * {@code bench --jfr} (a recording of a server's window): both enable it with {@link #THRESHOLD}, so every pin is
 * counted however short, and name a pin's place by {@link #of}.
 */
public final class PinPlace {
    /** A virtual thread that blocked while pinned to its carrier; its duration is how long it held the carrier so. */
    public static final String EVENT = "jdk.VirtualThreadPinned";
    /** Every pin, however short (the JDK's {@code default} and {@code profile} settings record only those of 20 ms or more). */
    public static final Duration THRESHOLD = Duration.ZERO;
    /** The same threshold as {@code jcmd JFR.start} takes an event setting. */
    public static final String JCMD_SETTING = EVENT + "#threshold=" + THRESHOLD.toMillis() + "ms";
    /** Frames of a stack that say where a pin came from. */
    static final int FRAMES = 3;

    private PinPlace() {
    }

    /**
     * Where {@code e} pinned: the first {@link #FRAMES} frames of its stack outside {@code java.*}, {@code jdk.*}
     * and {@code sun.*} and other than a lambda's (whose class name changes from one JVM to the next), or its top
     * frames when there are none, as "type.method:line < ..."; "(no stack)" without one.
     */
    public static String of(RecordedEvent e) {
        if (e.getStackTrace() == null) return "(no stack)";
        List<RecordedFrame> frames = e.getStackTrace().getFrames();
        List<RecordedFrame> own = frames.stream()
                .filter(f -> f.isJavaFrame() && !jdk(f.getMethod().getType().getName()) && !f.getMethod().getType().getName().contains("$$Lambda")).toList();
        return (own.isEmpty() ? frames : own).stream().limit(FRAMES)
                .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber())
                .collect(Collectors.joining(" < "));
    }

    private static boolean jdk(String type) {
        return type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.");
    }
}
