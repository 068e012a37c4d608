package loomylin.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import loomylin.cli.StartupFailure;

/** Runs hey: a measured run with a fixed count and per-request CSV, or a warm-up burst of fixed duration. */
final class HeyRun {
    private HeyRun() {
    }

    /**
     * One measured run's client side.
     *
     * @param wallS      from starting hey to its exit
     * @param clientCpuS hey's own CPU time (user + system, all threads)
     */
    record Measured(HeyCsv.Responses responses, double wallS, double clientCpuS) {
    }

    static Measured measure(Path hey, URI url, int requests, int concurrency, int timeoutS, ProcSampler sampler) throws IOException {
        Path csv = Files.createTempFile("loomylin-hey-", ".csv");
        Path err = Files.createTempFile("loomylin-hey-", ".err");
        try {
            ProcStat before = self();
            long start = System.nanoTime();
            Process p = ChildProcesses.start(command(hey, List.of("-n", Integer.toString(requests)), concurrency, timeoutS, url)
                    .redirectOutput(csv.toFile()).redirectError(err.toFile()));
            sampler.followClient(p.pid());
            // Every client's requests in a row, each up to the timeout, and some slack: beyond that hey is stuck.
            Duration bound = Duration.ofSeconds(60 + (long) (requests / concurrency) * (timeoutS + 2));
            finish(p, bound, err, "hey");
            double wallS = (System.nanoTime() - start) / 1e9;
            // hey has been reaped by now, so its CPU time is in the bench's cutime + cstime. The sampler's last
            // reading of hey's own stat is the fallback if anything else was reaped in between.
            double reaped = (self().childrenTicks() - before.childrenTicks()) / ProcStat.TICKS_PER_SECOND;
            double sampled = sampler.peaks().clientTicks() / ProcStat.TICKS_PER_SECOND;
            try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
                return new Measured(HeyCsv.parse(in), wallS, Math.max(reaped, sampled));
            }
        } finally {
            Files.deleteIfExists(csv);
            Files.deleteIfExists(err);
        }
    }

    /** Load for {@code duration} (hey -z), output thrown away: warms the server's JIT, caches and pools. */
    static void warmUp(Path hey, URI url, String duration, int concurrency, int timeoutS) throws IOException {
        Path err = Files.createTempFile("loomylin-hey-", ".err");
        try {
            Process p = ChildProcesses.start(command(hey, List.of("-z", duration), concurrency, timeoutS, url)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()));
            finish(p, Duration.ofSeconds(60 + 2L * timeoutS + seconds(duration)), err, "hey warm-up");
        } finally {
            Files.deleteIfExists(err);
        }
    }

    private static ProcessBuilder command(Path hey, List<String> amount, int concurrency, int timeoutS, URI url) {
        List<String> command = new java.util.ArrayList<>(List.of(hey.toString()));
        command.addAll(amount);
        command.addAll(List.of("-c", Integer.toString(concurrency), "-t", Integer.toString(timeoutS), "-o", "csv", url.toString()));
        return new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }

    private static void finish(Process p, Duration bound, Path err, String what) throws IOException {
        if (!ChildProcesses.waitFor(p, bound)) {
            ChildProcesses.stop(p, Duration.ofSeconds(2));
            throw new StartupFailure(what + " did not finish within " + bound.toSeconds() + " s; stopped it");
        }
        ChildProcesses.stop(p, Duration.ZERO);
        if (p.exitValue() != 0) {
            String stderr = Files.readString(err, StandardCharsets.UTF_8).strip().replace('\n', ' ');
            throw new StartupFailure(what + " failed with status " + p.exitValue() + ": "
                    + (stderr.length() > 300 ? stderr.substring(0, 300) + "..." : stderr));
        }
    }

    private static ProcStat self() {
        return ProcReader.SYSTEM.stat(ProcessHandle.current().pid())
                .orElseThrow(() -> new IllegalStateException("cannot read /proc/self/stat"));
    }

    private static long seconds(String duration) {
        return duration.endsWith("ms") ? Long.parseLong(duration.substring(0, duration.length() - 2)) / 1000 + 1
                : Long.parseLong(duration.substring(0, duration.length() - 1));
    }
}
