package loomylin.lab.engine.measure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Whose code a recording's CPU samples ran in: each {@code jdk.ExecutionSample} of a recording is charged to the
 * innermost frame on its stack that belongs to Loomylin, Javalin or Jetty (a JDK method runs on behalf of its
 * caller), else to the JDK. The split of a JFR recording by owner, and Loomylin's own methods by samples.
 *
 * <p>A sample is a statistical view of the running Java threads (the floor samples each every millisecond); native
 * code and the JVM's own threads, such as the JIT and the garbage collector, are not in it.
 */
public final class CodeOwners {
    /** Who wrote the code a sample ran in. */
    public enum Owner {
        LOOMYLIN("loomylin"), JAVALIN("javalin"), JETTY("jetty"), JDK("jdk and other");

        public final String label;

        Owner(String label) {
            this.label = label;
        }
    }

    /**
     * @param byOwner  samples charged to each owner
     * @param loomylin samples per Loomylin method (class.method) charged to Loomylin, most first
     */
    public record Split(Map<Owner, Long> byOwner, Map<String, Long> loomylin) {
        public long total() {
            return byOwner.values().stream().mapToLong(Long::longValue).sum();
        }

        /** "loomylin 12%, javalin 20%, jetty 40%, jdk and other 28%" */
        public String shares() {
            long total = total();
            if (total == 0) return "no samples";
            List<String> out = new java.util.ArrayList<>();
            for (Owner o : Owner.values()) out.add(o.label + " " + Math.round(100.0 * byOwner.getOrDefault(o, 0L) / total) + "%");
            return String.join(", ", out);
        }

        /** The {@code n} Loomylin methods with most samples, each with its share of all samples. */
        public String topLoomylin(int n) {
            long total = total();
            if (total == 0) return "";
            return String.join(", ", loomylin.entrySet().stream().limit(n)
                    .map(e -> e.getKey() + " " + Math.round(1000.0 * e.getValue() / total) / 10.0 + "%").toList());
        }
    }

    private CodeOwners() {
    }

    /** The owner of one class by its name. */
    public static Owner of(String className) {
        if (className.startsWith("loomylin.")) return Owner.LOOMYLIN;
        if (className.startsWith("io.javalin.")) return Owner.JAVALIN;
        if (className.startsWith("org.eclipse.jetty.")) return Owner.JETTY;
        return Owner.JDK;
    }

    /** Reads every execution sample of {@code recording}. */
    public static Split read(Path recording) throws IOException {
        Map<Owner, Long> byOwner = new EnumMap<>(Owner.class);
        Map<String, Long> loomylin = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
            RecordedStackTrace stack = e.getStackTrace();
            Owner owner = Owner.JDK;
            String method = null;
            if (stack != null) {
                for (RecordedFrame frame : stack.getFrames()) { // innermost first
                    if (frame.getMethod() == null || frame.getMethod().getType() == null) continue;
                    String type = frame.getMethod().getType().getName();
                    Owner o = of(type);
                    if (o == Owner.JDK) continue;
                    owner = o;
                    if (o == Owner.LOOMYLIN) method = type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
                    break;
                }
            }
            byOwner.merge(owner, 1L, Long::sum);
            if (method != null) loomylin.merge(method, 1L, Long::sum);
        }
        Map<String, Long> ordered = new java.util.LinkedHashMap<>();
        loomylin.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).forEach(x -> ordered.put(x.getKey(), x.getValue()));
        return new Split(byOwner, ordered);
    }
}
