package loomylin.server.launch;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * What every thread of this process is doing, virtual ones included: the JDK's JSON thread dump (as
 * {@code jcmd PID Thread.dump_to_file -format=json}), written to a new file in the temporary directory.
 */
final class ThreadDump {
    private ThreadDump() {
    }

    /**
     * Starts writing the dump and waits at most {@code waitMs} for it (a process with many virtual threads takes
     * longer, and the caller is about to end the process); returns what to print: the file, marked when it was
     * still being written, or why there is none.
     */
    static String toTempFile(String prefix, long waitMs) {
        Path file = Path.of(System.getProperty("java.io.tmpdir"),
                prefix + ProcessHandle.current().pid() + "-" + System.currentTimeMillis() + ".json").toAbsolutePath();
        String[] failed = {null};
        Thread writer = Thread.ofPlatform().daemon().name("loomylin-thread-dump").start(() -> {
            try {
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(file.toString(), ThreadDumpFormat.JSON);
            } catch (Exception | Error e) {
                failed[0] = e.toString();
            }
        });
        try {
            writer.join(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) return file + " (still being written at the exit)";
        return failed[0] == null ? file.toString() : "none (" + failed[0] + ")";
    }
}
