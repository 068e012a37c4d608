package loomylin.lab.engine.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --jfr}'s recording, made with jcmd on a real JVM (this one): a pin far shorter than the JDK's
 * {@code profile} threshold of 20 ms is counted, timed and placed, and jfr.csv keeps it by name, a file written
 * before the time was recorded included.
 */
class FlightRecordingTest {
    /** Its initialiser sleeps 2 ms: a virtual thread that runs it blocks where it cannot leave its carrier, on every JDK. */
    static final class ShortPin {
        static final long AT = sleepThenNow();
    }

    static long sleepThenNow() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return System.nanoTime();
    }

    @Test
    void aPinShorterThanTheProfilesThresholdIsCountedTimedAndPlaced(@TempDir Path dir) throws Exception {
        FlightRecording recording = FlightRecording.start(ProcessHandle.current().pid(), dir.resolve("window.jfr"));
        Thread.ofVirtual().start(() -> assertTrue(ShortPin.AT > 0)).join();
        FlightRecording.Summary s = recording.stop();
        long here = s.pinnedAt().entrySet().stream().filter(e -> e.getKey().contains("ShortPin")).mapToLong(Map.Entry::getValue).sum();
        assertEquals(1, here, "the 2 ms pin in the class initialiser: " + s.pinnedAt());
        assertTrue(s.pinned() >= here && s.pinnedMs() > 0, "counted and timed: " + s);
        assertTrue(s.pinnedAt().keySet().stream().filter(k -> k.contains("ShortPin")).noneMatch(k -> k.contains("$$Lambda")),
                "a place reads the same in every JVM, without a lambda's generated class: " + s.pinnedAt());

        Path csv = dir.resolve(FlightRecording.CSV);
        FlightRecording.appendCsv(csv, "loom x c=1 wrk #1", dir.resolve("window.jfr"), s);
        Map<String, String> row = FlightRecording.readCsv(csv).getFirst();
        assertEquals(FlightRecording.COLUMNS, List.copyOf(row.keySet()));
        assertEquals(Long.toString(s.pinned()), row.get("pinned"));
        assertTrue(Double.parseDouble(row.get("pinned_ms")) > 0, row.toString());
        assertTrue(row.get("most_pinned_at").contains(" x "), row.toString());
    }

    @Test
    void aFileWrittenBeforePinsWereTimedHasNoTime(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve(FlightRecording.CSV);
        Files.writeString(csv, "run,recording,gc_pause_ms,gcs,pinned,submit_failed,samples,top_thread_groups\n"
                + "loom x c=1 wrk #1,jfr/a.jfr,9.4,1,394,0,16,\"virtual threads 88%, loom-N-platform-N 13%\"\n");
        Map<String, String> row = FlightRecording.readCsv(csv).getFirst();
        assertEquals("394", row.get("pinned"));
        assertEquals("virtual threads 88%, loom-N-platform-N 13%", row.get("top_thread_groups"));
        assertFalse(row.containsKey("pinned_ms"), row.toString());
    }
}
