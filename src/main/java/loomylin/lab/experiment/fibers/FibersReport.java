package loomylin.lab.experiment.fibers;

import loomylin.lab.engine.run.Calibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.lab.engine.output.Machine;
import loomylin.lab.engine.output.Invocations;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Windows;

/** seed004.md: the calibration, then per experiment and request time the seed's table beside ours, and what holds. */
public final class FibersReport {
    private static final String FIBERS = "loom";
    private static final String KERNEL = "qtp:1000";

    private FibersReport() {
    }

    public static void write(Path target, int invocation, Provenance provenance, Machine machine, Calibration cal, String duration, String warmup,
                      List<String> pools, List<Integer> concurrency, List<FibersExperiments.Row> rows) throws IOException {
        Map<String, FibersExperiments.Row> byKey = FibersExperiments.index(rows);
        StringBuilder md = new StringBuilder();
        md.append("# Seed 004 (fibers-server) on this machine\n\n").append(provenance.markdown())
                .append(Invocations.oneInvocationNote(invocation, FibersExperiments.CSV));
        md.append(String.format(Locale.ROOT, "Machine: %d cores, %d MB, %s; %s; %s; %s%n%n", machine.cores(), machine.memoryKb() / 1024,
                machine.cpu(), machine.jdk(), machine.os(), machine.date()));
        long tooShort = rows.stream().filter(FibersExperiments.Row::tooShort).count();
        md.append("Each run: a fresh server JVM on one pool, a ").append(warmup).append(" hey warm-up at the run's own concurrency, then hey for ").append(duration)
                .append(" (").append(Windows.closedS((int) FibersExperiments.seconds(duration), 1000)).append(" s for 1 s requests; closed loop, `hey -z`); req/s = 2xx answers / hey's wall time, start to exit (hey stops sending at the window's end")
                .append(" but waits for the requests in flight). N/A: the run could not complete (server or hey failed); `(E err)`: E answers that were not 2xx; ")
                .append("`(>= U unanswered)`: fewer answers than clients, so at least U requests were still unanswered at hey's timeout (hey's CSV lists answered requests only); ")
                .append(String.format(Locale.ROOT, "`(too short)`: under %,d answers, or under %d per client, so the window was mostly the clients' first requests queueing: "
                        + "the run decides nothing and the verdicts leave it out. %d of %d runs were too short.%n%n",
                        RunResult.MIN_ANSWERS, RunResult.MIN_ANSWERS_PER_CLIENT, tooShort, rows.size()));
        md.append(String.format(Locale.ROOT, "Calibration at bench start: %.0f SHA-256 iterations per ms; %.0f data-file bytes per ms of "
                + "serving (read with a FileChannel from the page cache and written to a loopback socket). The file part is capped at the %d-byte data file.%n%n",
                cal.iterationsPerMs(), cal.fileBytesPerMs(), FibersExperiments.FILE_CAP));
        md.append("| experiment | request | /mixed query | CPU ms | sleep ms | file ms |\n|---|---|---|---|---|---|\n");
        for (int e = 1; e <= FibersExperiments.EXPERIMENTS.size(); e++) {
            Calibration.Mix mix = FibersExperiments.EXPERIMENTS.get(e - 1);
            for (int ms : FibersExperiments.REQUEST_MS) {
                String q = cal.query(mix, ms, FibersExperiments.FILE_CAP);
                long cpu = Long.parseLong(q.replaceAll(".*cpu=(\\d+).*", "$1"));
                long file = Long.parseLong(q.replaceAll(".*file=(\\d+).*", "$1"));
                boolean capped = Math.round(mix.ioShare() * ms * cal.fileBytesPerMs()) > FibersExperiments.FILE_CAP;
                md.append(String.format(Locale.ROOT, "| %d | %d ms | `%s` | %.1f | %.0f | %.2f%s |%n", e, ms, q, cpu / cal.iterationsPerMs(),
                        mix.sleepShare() * ms, cal.readMs(file), capped ? String.format(Locale.ROOT, " (capped; the mix asks %.0f)", mix.ioShare() * ms) : ""));
            }
        }
        for (int e = 1; e <= FibersExperiments.EXPERIMENTS.size(); e++) {
            md.append("\n## ").append(FibersExperiments.EXPERIMENTS.get(e - 1).name()).append("\n");
            for (int ms : FibersExperiments.REQUEST_MS) {
                md.append("\n### ").append(ms < 1000 ? ms + " ms" : ms / 1000 + " s").append(" requests (req/s)\n\n");
                md.append("| Concurrency | seed fibers | seed kernel |");
                pools.forEach(p -> md.append(' ').append(p).append(" |"));
                md.append("\n|---|---|---|").append("---|".repeat(pools.size())).append('\n');
                for (int c : concurrency) {
                    int[] seed = FibersExperiments.seed(e, ms, c);
                    md.append("| ").append(c).append(" | ").append(seed == null ? "" : na(seed[0])).append(" | ")
                            .append(seed == null ? "" : na(seed[1])).append(" |");
                    for (String p : pools) md.append(' ').append(cell(byKey.get(e + "/" + ms + "/" + c + "/" + p))).append(" |");
                    md.append('\n');
                }
            }
            md.append('\n').append(verdict(e, byKey, concurrency)).append('\n');
        }
        Files.writeString(target, md.toString());
    }

    /** Which of the seed's two observations hold here for experiment e. */
    public static String verdict(int e, Map<String, FibersExperiments.Row> byKey, List<Integer> concurrency) {
        int compared = 0, atOrAbove = 0;
        for (int ms : FibersExperiments.REQUEST_MS) {
            for (int c : concurrency) {
                FibersExperiments.Row f = byKey.get(e + "/" + ms + "/" + c + "/" + FIBERS), k = byKey.get(e + "/" + ms + "/" + c + "/" + KERNEL);
                if (f == null || k == null || f.tooShort() || k.tooShort()) continue;
                compared++;
                if (f.complete() && (!k.complete() || f.rps() >= k.rps())) atOrAbove++;
            }
        }
        int high = 0, highComplete = 0;
        for (int c : concurrency) {
            FibersExperiments.Row k = byKey.get(e + "/1000/" + c + "/" + KERNEL);
            if (k == null || c < 1000) continue;
            high++;
            if (k.complete()) highComplete++;
        }
        String first = compared == 0 ? "Seed: fibers at or above kernel at every concurrency; not compared here (needs " + FIBERS + " and " + KERNEL + " runs that are not too short)."
                : String.format(Locale.ROOT, "Seed: fibers at or above kernel at every concurrency; here %s at or above %s in %d of %d cells whose runs decide (%s).",
                FIBERS, KERNEL, atOrAbove, compared, atOrAbove == compared ? "holds" : "does not hold everywhere");
        String second = high == 0 ? "" : String.format(Locale.ROOT, " Seed: kernel threads could not complete the 1 s runs at 1000+; here %s completed %d of %d of them without errors (%s).",
                KERNEL, highComplete, high, highComplete == high ? "does not hold" : highComplete == 0 ? "holds" : "holds in part");
        return first + second;
    }

    private static String na(int rps) {
        return rps < 0 ? "N/A" : Integer.toString(rps);
    }

    public static String cell(FibersExperiments.Row r) {
        if (r == null) return "";
        if (r.failure() != null) return "N/A";
        return String.format(Locale.ROOT, "%.0f", r.rps()) + (r.errors() > 0 ? " (" + r.errors() + " err)" : "")
                + (r.unanswered() > 0 ? " (>= " + r.unanswered() + " unanswered)" : "") + (r.tooShort() ? " (too short)" : "");
    }
}
