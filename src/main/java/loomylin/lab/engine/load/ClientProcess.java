package loomylin.lab.engine.load;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import loomylin.server.proc.ProcReader;
import loomylin.lab.engine.measure.ProcSampler;
import loomylin.server.proc.ProcStat;
import loomylin.lab.engine.process.ChildProcesses;
import loomylin.server.cli.StartupFailure;

/**
 * Runs a load generator to its end: output to a file, a bound on its time, a one-line failure with the end
 * of its stderr when it exits non-zero, and its CPU time.
 */
public final class ClientProcess {
    private ClientProcess() {
    }

    /** @param wallS start to exit; @param cpuS its user + system CPU seconds */
    public record Finished(double wallS, double cpuS) {
    }

    public static Finished run(List<String> command, Path stdout, Duration bound, ProcSampler sampler, String what) throws IOException {
        return run(List.of(), command, stdout, bound, sampler, what);
    }

    /** The same, started under {@code launcher} (for example {@code taskset -c 1}), which must exec the command in its own process. */
    public static Finished run(List<String> launcher, List<String> command, Path stdout, Duration bound, ProcSampler sampler, String what) throws IOException {
        if (!launcher.isEmpty()) {
            List<String> launched = new java.util.ArrayList<>(launcher);
            launched.addAll(command);
            command = launched;
        }
        Path err = Files.createTempFile("loomylin-client-", ".err");
        try {
            ProcStat before = self();
            long start = System.nanoTime();
            Process p = ChildProcesses.start(new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(stdout == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stdout.toFile()))
                    .redirectError(err.toFile()));
            if (sampler != null) sampler.followClient(p.pid());
            if (!ChildProcesses.waitFor(p, bound)) {
                ChildProcesses.stop(p, Duration.ofSeconds(2));
                throw new StartupFailure(what + " did not finish within " + bound.toSeconds() + " s; stopped it");
            }
            double wallS = (System.nanoTime() - start) / 1e9;
            ChildProcesses.stop(p, Duration.ZERO);
            if (p.exitValue() != 0) {
                String stderr = Files.readString(err, StandardCharsets.UTF_8).strip().replace('\n', ' ');
                throw new StartupFailure(what + " failed with status " + p.exitValue() + ": "
                        + (stderr.length() > 300 ? stderr.substring(0, 300) + "..." : stderr));
            }
            // The client has been reaped by now, so its CPU time is in the bench's cutime + cstime. The sampler's
            // last reading of its own stat is the fallback if anything else was reaped in between.
            double reaped = (self().childrenTicks() - before.childrenTicks()) / ProcStat.TICKS_PER_SECOND;
            double sampled = sampler == null ? 0 : sampler.peaks().clientTicks() / ProcStat.TICKS_PER_SECOND;
            return new Finished(wallS, Math.max(reaped, sampled));
        } finally {
            Files.deleteIfExists(err);
        }
    }

    private static ProcStat self() {
        return ProcReader.SYSTEM.stat(ProcessHandle.current().pid())
                .orElseThrow(() -> new IllegalStateException("cannot read /proc/self/stat"));
    }
}
