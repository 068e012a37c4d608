package loomylin.server.proc;

/**
 * The machine's CPU time from the aggregate {@code cpu} line of {@code /proc/stat}, in clock ticks: all of it,
 * and the part the hypervisor gave to someone else (steal). On a virtual machine, steal is the host running
 * other guests on our cores: a run during which it grows was measured on a slower machine than its neighbours.
 * Idle (with I/O wait) is what no process used: the rest is how busy the machine was.
 */
public record CpuTimes(long totalTicks, long stealTicks, long idleTicks) {

    static CpuTimes parse(String procStat) {
        for (String line : procStat.split("\n")) {
            if (!line.startsWith("cpu ")) continue;
            String[] f = line.trim().split("\\s+");
            if (f.length < 9) throw new IllegalArgumentException("short cpu line in /proc/stat: " + line);
            long total = 0;
            // user nice system idle iowait irq softirq steal [guest guest_nice: already counted in user and nice]
            for (int i = 1; i <= 8; i++) total += Long.parseLong(f[i]);
            return new CpuTimes(total, Long.parseLong(f[8]), Long.parseLong(f[4]) + Long.parseLong(f[5]));
        }
        throw new IllegalArgumentException("no aggregate cpu line in /proc/stat");
    }

    /** How busy the machine was between {@code before} and this: the share of its time not idle (nor waiting on I/O), in percent; NaN if none passed. */
    public double busyPctSince(CpuTimes before) {
        long total = totalTicks - before.totalTicks;
        return total <= 0 ? Double.NaN : 100.0 * (total - (idleTicks - before.idleTicks)) / total;
    }

    /** The share of the machine's time between {@code before} and this that was stolen, in percent; NaN if none passed. */
    public double stealPctSince(CpuTimes before) {
        long total = totalTicks - before.totalTicks;
        return total <= 0 ? Double.NaN : 100.0 * (stealTicks - before.stealTicks) / total;
    }
}
