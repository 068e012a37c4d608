package loomylin.lab.engine.output;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;

/** One configuration (pool, endpoint, level) and its finished repeats, in invocation and repeat order. */
public record Config(RunSpec spec, List<RunResult> repeats) {

    /** The rows grouped by configuration, in the order the configurations first appear. */
    public static List<Config> of(List<RunResult> rows) {
        Map<String, List<RunResult>> groups = new LinkedHashMap<>();
        for (RunResult r : rows) groups.computeIfAbsent(r.spec().key(), k -> new ArrayList<>()).add(r);
        List<Config> out = new ArrayList<>();
        for (List<RunResult> g : groups.values()) {
            List<RunResult> sorted = g.stream().sorted(Comparator.comparingInt(RunResult::invocation).thenComparingInt(r -> r.spec().repeat())).toList();
            out.add(new Config(sorted.get(0).spec(), sorted));
        }
        return out;
    }

    /** The same configuration with only its runs the bench did not mark (too short, unsettled, client-limited): what a table's medians read. */
    public Config decided() {
        return new Config(spec, repeats.stream().filter(r -> r.marks().isEmpty()).toList());
    }

    /** Its marked runs, counted by mark: "1 unsettled, 2 client-limited of 4"; "-" when none is marked. */
    public String marksText() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (RunResult r : repeats) for (String m : r.marks()) counts.merge(m, 1, Integer::sum);
        if (counts.isEmpty()) return "-";
        List<String> parts = new ArrayList<>();
        counts.forEach((mark, n) -> parts.add(n + " " + mark));
        return String.join(", ", parts) + " of " + repeats.size();
    }

    public Spread spread(ToDoubleFunction<RunResult> metric) {
        return Spread.of(repeats.stream().map(metric::applyAsDouble).toList());
    }

    public long errors() {
        return repeats.stream().mapToLong(RunResult::errors).sum();
    }

    /** Every repeat answered every request 2xx: the only kind of configuration a target can pass on. */
    public boolean clean() {
        return repeats.stream().allMatch(RunResult::clean);
    }

    public boolean clientLimited() {
        return repeats.stream().anyMatch(RunResult::clientLimited);
    }

    public String describe() {
        return spec.pool() + " " + spec.endpoint() + " " + spec.level() + " (" + spec.client().label() + ", " + repeats.size()
                + (repeats.size() == 1 ? " run" : " runs") + (clientLimited() ? ", client-limited" : "") + ")";
    }
}
