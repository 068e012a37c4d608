package loomylin.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import loomylin.cli.UsageError;
import loomylin.jetty.PoolKind;

/**
 * The ordered list of runs a bench makes. Within a block the pools vary fastest, so the runs a comparison
 * sets side by side (same endpoint and concurrency, different pool) run minutes apart at most, not the
 * whole bench apart, and drift of a shared machine hurts the ratios less.
 */
final class Plan {
    private Plan() {
    }

    /**
     * The preset's runs with --pools, --endpoints and --concurrency (null = not given) replacing that list in
     * every block; a run that comes out of two blocks is made once, where it first appears.
     */
    static List<RunSpec> of(Preset preset, List<String> pools, List<String> endpoints, List<Integer> concurrency, RequestRule requests) {
        Map<String, RunSpec> runs = new LinkedHashMap<>();
        for (Preset.Block block : preset.blocks()) {
            Preset.Block b = block.with(pools, endpoints, concurrency);
            for (String e : b.endpoints()) {
                Endpoint endpoint = Endpoint.parse(e);
                for (int c : b.concurrency()) {
                    for (String p : b.pools()) {
                        RunSpec run = new RunSpec(pool(p), endpoint, c, requests.requestsFor(c));
                        runs.putIfAbsent(run.key(), run);
                    }
                }
            }
        }
        return List.copyOf(runs.values());
    }

    static PoolKind pool(String spec) {
        try {
            return PoolKind.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
    }

    /** In order of first appearance: the order of the report's sections and of the charts' legends. */
    static List<Endpoint> endpoints(List<RunSpec> runs) {
        List<Endpoint> out = new ArrayList<>();
        for (RunSpec r : runs) if (!out.contains(r.endpoint())) out.add(r.endpoint());
        return out;
    }

    static List<PoolKind> pools(List<RunSpec> runs) {
        List<PoolKind> out = new ArrayList<>();
        for (RunSpec r : runs) if (!out.contains(r.pool())) out.add(r.pool());
        return out;
    }
}
