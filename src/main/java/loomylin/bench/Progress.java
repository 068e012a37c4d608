package loomylin.bench;

import java.io.PrintStream;

/** One line per finished run, with the time the rest should take at the average pace so far. */
final class Progress {
    private final int total;
    private final PrintStream out;
    private final long start = System.nanoTime();

    Progress(int total, PrintStream out) {
        this.total = total;
        this.out = out;
    }

    void done(int finished, RunResult r) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        double eta = elapsed / finished * (total - finished);
        out.printf(java.util.Locale.ROOT, "[%d/%d] %-10s %-28s %-14s %s #%d %9.1f req/s (warm-up %.1f)  p99 %8.1f ms  errors %-5d cpu %6.3f ms/req  rss %5.0f MB  threads %-5d%s | %s elapsed, ETA %s%n",
                finished, total, r.spec().pool(), r.spec().endpoint(), r.spec().level(), r.spec().client().label(), r.spec().repeat(),
                r.rps(), r.warmupRps(), r.p99Ms(), r.errors(), r.cpuMsPerRequest(), r.peakRssKb() / 1024.0, r.peakThreads(),
                r.clientLimited() ? "  CLIENT-LIMITED" : "", clock(elapsed), clock(eta));
    }

    void failed(int number, RunSpec run, String why) {
        out.printf("[%d/%d] %s FAILED: %s%n", number, total, run.describe(), why);
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 60 ? (s / 60) + "m" + String.format("%02d", s % 60) + "s" : s + "s";
    }
}
