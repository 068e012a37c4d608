package loomylin.lab.engine.run;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import loomylin.server.cli.UsageError;

/**
 * Which CPUs each kind of process the bench starts may run on ({@code --server-cpus}, {@code --client-cpus},
 * {@code --backend-cpus}): a pinned process is started under {@code taskset -c LIST}, so it and every thread it
 * makes stay on those CPUs. A kind without a set runs wherever the kernel puts it. Pinning needs Linux and
 * taskset (util-linux); without them any of the flags is a usage error.
 */
public final class CpuSets {
    /** The kinds of process, each with its flag. */
    public enum Role {
        SERVER("server-cpus"), CLIENT("client-cpus"), BACKEND("backend-cpus");

        public final String flag;

        Role(String flag) {
            this.flag = flag;
        }

        /** The name provenance and results.csv use: server, client, backend. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Nothing pinned. */
    public static final CpuSets NONE = new CpuSets(Map.of(), null);

    private final Map<Role, CpuSet> sets;
    private final Path taskset;

    private CpuSets(Map<Role, CpuSet> sets, Path taskset) {
        this.sets = sets.isEmpty() ? Map.of() : new EnumMap<>(sets);
        this.taskset = taskset;
    }

    /**
     * The sets from the flags' values ({@code raw}, a role's value null when its flag is not given), checked
     * against the CPUs this process may use (the Cpus_allowed_list line of {@code procSelfStatus}) and with
     * taskset looked up on {@code pathEnv}.
     */
    public static CpuSets of(Map<Role, String> raw, Path procSelfStatus, String pathEnv) {
        Map<Role, String> given = new EnumMap<>(Role.class);
        raw.forEach((role, value) -> {
            if (value != null) given.put(role, value);
        });
        if (given.isEmpty()) return NONE;
        String flags = String.join(", ", given.keySet().stream().map(r -> "--" + r.flag).toList());
        Optional<CpuSet> allowed = allowed(procSelfStatus);
        if (allowed.isEmpty()) throw new UsageError(flags + " pins processes with taskset, which needs Linux (no Cpus_allowed_list in " + procSelfStatus + ")");
        Path taskset = onPath("taskset", pathEnv)
                .orElseThrow(() -> new UsageError(flags + " pins processes with taskset, which is not on PATH; install it with: apt install util-linux"));
        Map<Role, CpuSet> sets = new EnumMap<>(Role.class);
        given.forEach((role, value) -> sets.put(role, CpuSet.flag(role.flag, value, allowed.get())));
        return new CpuSets(sets, taskset);
    }

    /**
     * The sets a bench that already ran was given ({@code bench --rerender} reads its command back): each list parsed as
     * the flag parses it, but neither checked against this machine's CPUs nor with taskset looked up, since nothing is
     * started; {@link #wrap} of such sets is a bug.
     */
    public static CpuSets recorded(Map<Role, String> raw) {
        Map<Role, CpuSet> sets = new EnumMap<>(Role.class);
        raw.forEach((role, value) -> {
            if (value != null) sets.put(role, CpuSet.listed(role.flag, value));
        });
        return sets.isEmpty() ? NONE : new CpuSets(sets, null);
    }

    /** The CPUs this process may run on, from its /proc/self/status; empty where that cannot be read (not Linux). */
    public static Optional<CpuSet> allowed(Path procSelfStatus) {
        try {
            for (String line : Files.readAllLines(procSelfStatus, StandardCharsets.UTF_8))
                if (line.startsWith("Cpus_allowed_list:")) return Optional.of(CpuSet.parse(line.substring(line.indexOf(':') + 1)));
            return Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public Optional<CpuSet> get(Role role) {
        return Optional.ofNullable(sets.get(role));
    }

    /** What goes before a command of {@code role}: {@code taskset -c LIST} when it is pinned, else nothing. */
    public List<String> prefix(Role role) {
        return wrap(role, List.of());
    }

    /** Whether processes of the two roles may run on a CPU in common (either not pinned, or their sets overlap). */
    public boolean share(Role a, Role b) {
        return !sets.containsKey(a) || !sets.containsKey(b) || sets.get(a).overlaps(sets.get(b));
    }

    /** {@code command} run under {@code taskset -c LIST} when {@code role} is pinned, else unchanged. */
    public List<String> wrap(Role role, List<String> command) {
        CpuSet set = sets.get(role);
        if (set == null) return command;
        if (taskset == null) throw new IllegalStateException("CPU sets read back from a finished bench start nothing"); // recorded(): a bug
        List<String> wrapped = new ArrayList<>(List.of(taskset.toString(), "-c", set.toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** How many CPUs {@code role} may use: its set's size, or every core the machine gives the bench. */
    public int cpus(Role role, int machineCores) {
        return get(role).map(CpuSet::size).orElse(machineCores);
    }

    /** Each role's set, or "all" when not pinned, for provenance and results.csv. */
    public Map<String, String> describe() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Role r : Role.values()) out.put(r.label(), get(r).map(CpuSet::toString).orElse("all"));
        return out;
    }

    private static Optional<Path> onPath(String name, String pathEnv) {
        for (String dir : (pathEnv == null ? "" : pathEnv).split(File.pathSeparator)) {
            if (dir.isBlank()) continue;
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return Optional.of(candidate.toAbsolutePath());
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return describe().toString();
    }
}
