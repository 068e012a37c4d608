package loomylin.lab.engine.output;

import java.io.PrintStream;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;

/** One line per finished run, with the time the rest should take at the average pace so far. */
public final class Progress {
    private final int total;
    private final PrintStream out;
    private final long start = System.nanoTime();

    public int total() {
        return total;
    }

    public Progress(int total, PrintStream out) {
        this.total = total;
        this.out = out;
    }

    public void done(int finished, RunResult r) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        double eta = elapsed / finished * (total - finished);
        out.printf(java.util.Locale.ROOT, "[%d/%d] %-10s %-28s %-14s %s #%d %9.1f req/s (warm-up %.1f)  p99 %8.1f ms  errors %-5d cpu %6s ms/req  rss %5s MB  threads %-5s%s | %s elapsed, ETA %s%n",
                finished, total, r.spec().pool(), r.spec().endpoint(), r.spec().level(), r.spec().client().label(), r.spec().repeat(),
                r.rps(), r.warmupRps(), r.p99Ms(), r.errors(), orDash(RunResult.fixed(r.cpuMsPerRequest(), 3)), orDash(RunResult.fixed(RunResult.mb(r.peakRssKb()), 0)),
                orDash(RunResult.count(r.peakThreads())),
                (r.clientLimited() ? "  CLIENT-LIMITED" : "") + (r.tooShort() ? "  TOO SHORT" : "") + (r.cold() ? "  COLD" : "")
                        + (r.settled() ? "" : "  UNSETTLED"),
                clock(elapsed), clock(eta));
    }

    /** ", 3m10s elapsed, ETA 12m40s" after {@code finished} of the runs. */
    public String eta(int finished) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        return ", " + clock(elapsed) + " elapsed, ETA " + clock(elapsed / finished * (total - finished));
    }

    public void failed(int number, RunSpec run, String why) {
        out.printf("[%d/%d] %s FAILED: %s%n", number, total, run.describe(), why);
    }

    /** A server figure a --target bench without --metrics does not have. */
    private static String orDash(String value) {
        return value.isEmpty() ? "-" : value;
    }

    public static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 60 ? (s / 60) + "m" + String.format("%02d", s % 60) + "s" : s + "s";
    }
}
