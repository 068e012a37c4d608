package loomylin.lab.engine.run;

import java.util.ArrayList;
import java.util.List;
import loomylin.lab.engine.load.Client;
import loomylin.server.jetty.PoolKind;

/**
 * One measured run: a fresh server on {@code pool}, loaded on {@code endpoint}.
 *
 * @param concurrency connections: closed-loop clients, or the open-loop tool's fixed connection count
 * @param rate        requests per second offered at a constant rate (open loop), or 0 for a closed loop
 * @param client      the load generator of the measured run: hey or wrk (closed), oha (open)
 * @param repeat      which repeat of this configuration, from 1
 */
public record RunSpec(PoolKind pool, Endpoint endpoint, int concurrency, int rate, Client client, int repeat) {

    public boolean open() {
        return rate > 0;
    }

    /** The configuration, without the repeat: what the report sets repeats of side by side. */
    public String key() {
        return pool + " " + endpoint + " " + level();
    }

    /** "c=50", or "250/s c=1000" in an open loop. */
    public String level() {
        return open() ? rate + "/s c=" + concurrency : "c=" + concurrency;
    }

    public String describe() {
        return pool + " " + endpoint + " " + level() + " " + client.label() + " #" + repeat;
    }

    /** In order of first appearance: the order of the report's sections and of the charts' legends. */
    public static List<Endpoint> endpoints(List<RunSpec> runs) {
        List<Endpoint> out = new ArrayList<>();
        for (RunSpec r : runs) if (!out.contains(r.endpoint())) out.add(r.endpoint());
        return out;
    }

    public static List<PoolKind> pools(List<RunSpec> runs) {
        List<PoolKind> out = new ArrayList<>();
        for (RunSpec r : runs) if (!out.contains(r.pool())) out.add(r.pool());
        return out;
    }

    public static boolean uses(List<RunSpec> runs, Client client) {
        return runs.stream().anyMatch(r -> r.client() == client);
    }
}
