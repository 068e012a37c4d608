package loomylin.server.proc;

/**
 * The memory and thread lines of {@code /proc/<pid>/status}, in kB. A line the kernel leaves out (a zombie
 * has no Vm* lines) reads as 0.
 *
 * @param rssKb  VmRSS: resident memory now
 * @param hwmKb  VmHWM: the most resident memory since the process started; a peak no sampler can miss
 * @param vszKb  VmSize: address space now
 * @param peakVszKb VmPeak: the largest address space since start
 * @param threads Threads: OS threads now
 */
public record ProcStatus(long rssKb, long hwmKb, long vszKb, long peakVszKb, int threads) {

    static ProcStatus parse(String text) {
        long rss = 0, hwm = 0, vsz = 0, peak = 0;
        int threads = 0;
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon);
            String value = line.substring(colon + 1).trim();
            switch (key) {
                case "VmRSS" -> rss = kb(value);
                case "VmHWM" -> hwm = kb(value);
                case "VmSize" -> vsz = kb(value);
                case "VmPeak" -> peak = kb(value);
                case "Threads" -> threads = (int) number(value);
                default -> {
                    // the other thirty-odd lines are not ours
                }
            }
        }
        return new ProcStatus(rss, hwm, vsz, peak, threads);
    }

    private static long kb(String value) {
        if (!value.endsWith(" kB")) throw new IllegalArgumentException("expected a size in kB, got '" + value + "'");
        return number(value.substring(0, value.length() - 3).trim());
    }

    private static long number(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number, got '" + value + "'");
        }
    }
}
