package loomylin.lab.engine.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * A set of CPUs in the kernel's list format ({@code 0}, {@code 0-1}, {@code 0,2-3}): what {@code taskset -c}
 * takes and {@code /proc/<pid>/status}'s {@code Cpus_allowed_list} shows.
 *
 * @param cpus the CPU numbers, at least one
 */
public record CpuSet(SortedSet<Integer> cpus) {
    private static final int MAX_CPU = 4095;

    public CpuSet {
        if (cpus.isEmpty()) throw new IllegalArgumentException("a CPU set holds at least one CPU");
        cpus = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(cpus));
    }

    /** The kernel's list format; IllegalArgumentException on anything else (a reversed range, a stray character). */
    public static CpuSet parse(String list) {
        SortedSet<Integer> cpus = new TreeSet<>();
        String text = list.strip();
        if (text.isEmpty()) throw new IllegalArgumentException("an empty CPU list");
        for (String part : text.split(",", -1)) {
            if (!part.matches("\\d{1,4}(-\\d{1,4})?")) throw new IllegalArgumentException("'" + part + "' is not a CPU or a range of CPUs like 0-1");
            String[] ends = part.split("-");
            int from = Integer.parseInt(ends[0]);
            int to = ends.length == 1 ? from : Integer.parseInt(ends[1]);
            if (to < from) throw new IllegalArgumentException("the range " + part + " runs backwards");
            if (to > MAX_CPU) throw new IllegalArgumentException("CPU " + to + " is beyond " + MAX_CPU);
            for (int c = from; c <= to; c++) cpus.add(c);
        }
        return new CpuSet(cpus);
    }

    /**
     * The value of flag {@code --name}: a CPU list whose CPUs this process may use ({@code allowed}, its own
     * Cpus_allowed_list). Anything else is a one-line usage error naming the flag and the allowed CPUs.
     */
    public static CpuSet flag(String name, String raw, CpuSet allowed) {
        CpuSet set = listed(name, raw);
        Set<Integer> missing = new TreeSet<>(set.cpus());
        missing.removeAll(allowed.cpus());
        if (!missing.isEmpty())
            throw new UsageError("--" + name + " " + set + ": this machine lets the bench use CPUs " + allowed + " only, not " + new CpuSet(new TreeSet<>(missing)));
        return set;
    }

    /** The value of flag {@code --name} as a CPU list, whatever CPUs this machine has; a malformed one is a one-line usage error naming the flag. */
    public static CpuSet listed(String name, String raw) {
        try {
            return parse(raw);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--" + name + " takes a CPU list like 0, 0-1 or 0,2 (" + e.getMessage() + "), got '" + Params.printable(raw) + "'");
        }
    }

    public int size() {
        return cpus.size();
    }

    public boolean overlaps(CpuSet other) {
        return cpus.stream().anyMatch(other.cpus::contains);
    }

    /** The kernel's list format with ranges folded: {0, 1, 2, 5} is "0-2,5". */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer last = null;
        for (int c : cpus) {
            if (last != null && c == last + 1) {
                last = c;
                continue;
            }
            if (start != null) parts.add(start.equals(last) ? start.toString() : start + "-" + last);
            start = c;
            last = c;
        }
        parts.add(start.equals(last) ? start.toString() : start + "-" + last);
        return String.join(",", parts);
    }
}
