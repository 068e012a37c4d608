package loomylin.server.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Reads a process's stat and status files, and the machine's stat, under a proc root: /proc, or a directory of recorded samples in tests. */
public final class ProcReader {
    public static final ProcReader SYSTEM = new ProcReader(Path.of("/proc"));

    private final Path root;

    public ProcReader(Path root) {
        this.root = root;
    }

    /** Empty once the process is gone (reaped): sampling races with exit, and that is no error. */
    public Optional<ProcStat> stat(long pid) {
        return read(pid, "stat").map(ProcStat::parse);
    }

    /** Empty once the process is gone, or where there is no /proc. */
    public Optional<ProcStatus> status(long pid) {
        return read(pid, "status").map(ProcStatus::parse);
    }

    /**
     * Each of a process's threads as {@code /proc/<pid>/task/<tid>/stat} gives it: its name (the kernel's 15
     * characters) in {@link ProcStat#command()} and its own CPU time in {@link ProcStat#cpuTicks()}. A thread that
     * ends while they are read is left out; empty once the process is gone.
     */
    public List<ProcStat> threads(long pid) {
        Path tasks = root.resolve(Long.toString(pid)).resolve("task");
        List<ProcStat> threads = new ArrayList<>();
        try (Stream<Path> ids = Files.list(tasks)) {
            for (Path task : ids.toList()) {
                try {
                    threads.add(ProcStat.parse(ProcFile.read(task.resolve("stat"))));
                } catch (IOException | IllegalArgumentException gone) {
                    // ended between the listing and the read
                }
            }
        } catch (IOException gone) {
            return List.of();
        }
        return threads;
    }

    /** The machine's CPU times; empty where there is no /proc/stat. */
    public Optional<CpuTimes> cpuTimes() {
        try {
            return Optional.of(CpuTimes.parse(ProcFile.read(root.resolve("stat"))));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The machine's one-minute load average as /proc/loadavg writes it (e.g. "0.52"); empty where there is none. */
    public Optional<String> loadAverage() {
        try {
            return Optional.of(ProcFile.read(root.resolve("loadavg")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private Optional<String> read(long pid, String file) {
        try {
            return Optional.of(ProcFile.read(root.resolve(Long.toString(pid)).resolve(file)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
