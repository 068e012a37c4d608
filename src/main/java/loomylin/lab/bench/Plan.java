package loomylin.lab.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.RunSpec;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;

/**
 * The ordered list of runs a bench makes. Runs that a comparison sets side by side come together: within a
 * block, at one level, each repeat runs every endpoint on every pool before the next repeat starts (blocking
 * and async on loom, loom and qtp:32, A B C A B C, not A A A B B B), so that drift of a shared machine, or of
 * the backend JVM that warms over a bench, hits both sides of a ratio alike.
 */
public final class Plan {
    private Plan() {
    }

    /** What the flags change in every block of the preset; null = the preset's own. */
    public record Overrides(List<String> pools, List<String> endpoints, List<Integer> concurrency, List<Integer> rates, Client client, Integer repeat) {
        static final Overrides NONE = new Overrides(null, null, null, null, null, null);
    }

    /**
     * The preset's runs with the overrides applied; a configuration that comes out of two blocks is made
     * where it first appears. --rate turns every block open-loop (oha); --client replaces every closed
     * block's client.
     */
    public static List<RunSpec> of(Preset preset, Overrides o) {
        int repeat = o.repeat() != null ? o.repeat() : preset.repeat();
        Map<String, RunSpec> runs = new LinkedHashMap<>();
        for (Preset.Block block : preset.blocks()) {
            Preset.Block b = block.with(o.pools(), o.endpoints(), o.concurrency());
            List<Integer> rates = o.rates() != null ? o.rates() : b.rates();
            Client client = !rates.isEmpty() ? Client.OHA : o.client() != null ? o.client() : b.client();
            for (int c : b.concurrency()) {
                for (int rate : rates.isEmpty() ? List.of(0) : rates) {
                    for (int r = 1; r <= repeat; r++) {
                        for (String e : b.endpoints()) {
                            Endpoint endpoint = Endpoint.parse(e);
                            for (String p : b.pools()) {
                                RunSpec run = new RunSpec(pool(p), endpoint, c, rate, client, r);
                                runs.putIfAbsent(run.key() + " #" + r, run);
                            }
                        }
                    }
                }
            }
        }
        return List.copyOf(runs.values());
    }

    public static PoolKind pool(String spec) {
        return UsageError.parsing(PoolKind::parse, spec);
    }
}
