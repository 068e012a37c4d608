package loomylin.server.proc;

/**
 * The fields of {@code /proc/<pid>/stat} Loomylin reads. Times are in clock ticks of {@link #TICKS_PER_SECOND}.
 *
 * @param cpuTicks      user + system time of the process, all its threads
 * @param childrenTicks user + system time of the children it has waited for (cutime + cstime): after hey
 *                      exits and is reaped, its whole CPU time shows up here in the bench's own stat
 * @param threads       OS threads, i.e. platform threads for a JVM (virtual threads are not OS threads)
 */
public record ProcStat(long pid, String command, char state, long cpuTicks, long childrenTicks, int threads, long vsizeKb, long rssPages) {

    /** USER_HZ: what the kernel reports times in; 100 on every Linux ABI the JDK runs on. */
    public static final double TICKS_PER_SECOND = 100.0;

    static ProcStat parse(String text) {
        // The command sits in parentheses and may itself hold spaces and ')' : the fields start after the last ')'.
        int open = text.indexOf('(');
        int close = text.lastIndexOf(')');
        if (open < 0 || close < open) throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + abbreviate(text));
        String[] f = text.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state) of proc(5); field k is f[k - 3].
        if (f.length < 22) throw new IllegalArgumentException("short /proc/<pid>/stat line (" + f.length + " fields after the command)");
        try {
            long utime = Long.parseLong(f[14 - 3]);
            long stime = Long.parseLong(f[15 - 3]);
            long cutime = Long.parseLong(f[16 - 3]);
            long cstime = Long.parseLong(f[17 - 3]);
            int threads = Integer.parseInt(f[20 - 3]);
            long vsizeBytes = Long.parseLong(f[23 - 3]);
            long rssPages = Long.parseLong(f[24 - 3]);
            return new ProcStat(Long.parseLong(text.substring(0, open).trim()), text.substring(open + 1, close), f[0].charAt(0),
                    utime + stime, cutime + cstime, threads, vsizeBytes / 1024, rssPages);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unreadable /proc/<pid>/stat line: " + abbreviate(text));
        }
    }

    public double cpuSeconds() {
        return cpuTicks / TICKS_PER_SECOND;
    }

    private static String abbreviate(String s) {
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
