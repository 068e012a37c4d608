package loomylin.lab.engine.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import loomylin.server.cli.StartupFailure;
import loomylin.server.jfr.PinPlace;

/**
 * A JDK Flight Recording of a server JVM over one measured window ({@code bench --jfr}): started and stopped with
 * {@code jcmd} (the JDK's own, beside the java that runs the bench and its servers) so that it covers the window
 * and nothing else, with the JDK's {@code profile} settings, which record execution samples, garbage collections
 * and the virtual-thread events {@code jdk.VirtualThreadPinned} and {@code jdk.VirtualThreadSubmitFailed}; pins at
 * {@link PinPlace#THRESHOLD} (every pin, however short, where {@code profile} keeps those of 20 ms or more).
 */
public final class FlightRecording {
    private static final String NAME = "loomylin-window";
    /** The file beside results.csv with a row per recorded run. */
    public static final String CSV = "jfr.csv";
    public static final List<String> COLUMNS = List.of("run", "recording", "gc_pause_ms", "gcs", "pinned", "submit_failed", "samples", "top_thread_groups",
            "pinned_ms", "most_pinned_at");
    private static final Duration JCMD_BOUND = Duration.ofSeconds(30);

    private final long pid;
    private final Path file;

    private FlightRecording(long pid, Path file) {
        this.pid = pid;
        this.file = file;
    }

    /** Starts recording in the JVM {@code pid}; {@link #stop} writes it to {@code file}. */
    public static FlightRecording start(long pid, Path file) throws IOException {
        return start(pid, file, new String[0]);
    }

    /**
     * The same, with event settings over the {@code profile} ones, each as {@code jcmd JFR.start} takes it (for example
     * {@link #SAMPLE_EVERY_MS}).
     */
    public static FlightRecording start(long pid, Path file, String... settings) throws IOException {
        List<String> args = new ArrayList<>(List.of("JFR.start", "name=" + NAME, "settings=profile", PinPlace.JCMD_SETTING));
        args.addAll(List.of(settings));
        jcmd(pid, args.toArray(String[]::new));
        return new FlightRecording(pid, file);
    }

    /** An execution sample of every running Java thread each millisecond (the profile's is 10 ms, 20 ms for native code). */
    public static final String SAMPLE_EVERY_MS = "jdk.ExecutionSample#period=1ms";

    /** Stops the recording and writes it out; returns what it holds. */
    public Summary stop() throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        jcmd(pid, "JFR.stop", "name=" + NAME, "filename=" + file.toAbsolutePath());
        return summarise(file);
    }

    /**
     * What the report needs of a recording.
     *
     * @param gcPauseMs     the garbage collector's pauses, summed
     * @param gcs           garbage collections
     * @param pinned        times a virtual thread blocked while pinned to its carrier (every pin, {@link PinPlace#THRESHOLD})
     * @param pinnedMs      how long they held their carriers so, summed
     * @param pinnedAt      the pins by {@link PinPlace#of where}, most first
     * @param submitFailed  virtual threads the scheduler could not take
     * @param samples       execution samples, by thread group (a platform thread's name with its numbers replaced by
     *                      N, or "virtual threads"), most first
     */
    public record Summary(double gcPauseMs, long gcs, long pinned, double pinnedMs, Map<String, Long> pinnedAt, long submitFailed,
            Map<String, Long> samples) {
        /** The place most pins came from, with its count, e.g. "394 x a.B.m:12 < ..."; empty when nothing pinned. */
        public String mostPinnedAt() {
            return pinnedAt.entrySet().stream().findFirst().map(e -> e.getValue() + " x " + e.getKey()).orElse("");
        }

        /** The thread groups with the most samples, each with its share, e.g. "qtpN-N 61%, virtual threads 30%". */
        public String topGroups(int n) {
            long total = samples.values().stream().mapToLong(Long::longValue).sum();
            if (total == 0) return "no samples";
            List<String> out = new ArrayList<>();
            for (Map.Entry<String, Long> e : samples.entrySet()) {
                if (out.size() == n) break;
                out.add(e.getKey() + " " + Math.round(100.0 * e.getValue() / total) + "%");
            }
            return String.join(", ", out);
        }
    }

    /** Appends {@code run}'s row to {@code csv}, writing the header first when the file is new. */
    public static void appendCsv(Path csv, String run, Path recording, Summary s) throws IOException {
        StringBuilder line = new StringBuilder();
        if (!Files.exists(csv)) line.append(String.join(",", COLUMNS)).append('\n');
        long samples = s.samples().values().stream().mapToLong(Long::longValue).sum();
        line.append(String.join(",", quote(run), quote(csv.toAbsolutePath().getParent().relativize(recording.toAbsolutePath()).toString()),
                String.format(java.util.Locale.ROOT, "%.1f", s.gcPauseMs()), Long.toString(s.gcs()), Long.toString(s.pinned()),
                Long.toString(s.submitFailed()), Long.toString(samples), quote(s.topGroups(3)), String.format(java.util.Locale.ROOT, "%.1f", s.pinnedMs()),
                quote(s.mostPinnedAt()))).append('\n');
        Files.writeString(csv, line, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    /**
     * The rows of a {@link #CSV} file {@link #appendCsv} wrote, each by its header's names; empty when there is none.
     * A file written before a column was added has no value for it.
     */
    public static List<Map<String, String>> readCsv(Path csv) throws IOException {
        return Files.exists(csv) ? loomylin.server.cli.Csv.parse(Files.readString(csv)) : List.of();
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    public static Summary summarise(Path file) throws IOException {
        double pauseMs = 0;
        long gcs = 0;
        long pinned = 0;
        long pinnedNanos = 0;
        Map<String, Long> pinnedAt = new TreeMap<>();
        long submitFailed = 0;
        Map<String, Long> samples = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            switch (e.getEventType().getName()) {
                case "jdk.GarbageCollection" -> {
                    gcs++;
                    pauseMs += e.getDuration("sumOfPauses").toNanos() / 1e6;
                }
                case PinPlace.EVENT -> {
                    pinned++;
                    pinnedNanos += e.getDuration().toNanos();
                    pinnedAt.merge(PinPlace.of(e), 1L, Long::sum);
                }
                case "jdk.VirtualThreadSubmitFailed" -> submitFailed++;
                case "jdk.ExecutionSample" -> samples.merge(group(e.getThread("sampledThread")), 1L, Long::sum);
                default -> {
                }
            }
        }
        return new Summary(pauseMs, gcs, pinned, pinnedNanos / 1e6, mostFirst(pinnedAt), submitFailed, mostFirst(samples));
    }

    private static Map<String, Long> mostFirst(Map<String, Long> counts) {
        Map<String, Long> ordered = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).forEach(x -> ordered.put(x.getKey(), x.getValue()));
        return ordered;
    }

    /** A sampled thread's group: every virtual thread in one, a platform thread by its name with the numbers taken out. */
    static String group(RecordedThread t) {
        if (t == null) return "unknown";
        if (t.isVirtual()) return "virtual threads";
        String name = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
        return name == null || name.isBlank() ? "unnamed" : name.replaceAll("\\d+", "N");
    }

    private static void jcmd(long pid, String... command) throws IOException {
        List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid)));
        args.addAll(List.of(command));
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(JCMD_BOUND.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new StartupFailure("jcmd " + command[0] + " did not finish within " + JCMD_BOUND.toSeconds() + " s");
            }
            String output = new String(p.getInputStream().readAllBytes()).strip();
            if (p.exitValue() != 0 || output.contains("Could not") || output.contains("Exception"))
                throw new StartupFailure("jcmd " + pid + " " + command[0] + " failed: " + output.replace('\n', ' '));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new StartupFailure("interrupted while jcmd " + command[0] + " ran");
        }
    }
}
