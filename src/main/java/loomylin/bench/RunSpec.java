package loomylin.bench;

import loomylin.jetty.PoolKind;

/**
 * One measured run: a fresh server on {@code pool}, loaded on {@code endpoint}.
 *
 * @param concurrency connections: closed-loop clients, or the open-loop tool's fixed connection count
 * @param rate        requests per second offered at a constant rate (open loop), or 0 for a closed loop
 * @param client      the load generator of the measured run: hey or wrk (closed), oha (open)
 * @param repeat      which repeat of this configuration, from 1
 */
record RunSpec(PoolKind pool, Endpoint endpoint, int concurrency, int rate, Client client, int repeat) {

    boolean open() {
        return rate > 0;
    }

    /** The configuration, without the repeat: what the report sets repeats of side by side. */
    String key() {
        return pool + " " + endpoint + " " + level();
    }

    /** "c=50", or "250/s c=1000" in an open loop. */
    String level() {
        return open() ? rate + "/s c=" + concurrency : "c=" + concurrency;
    }

    String describe() {
        return pool + " " + endpoint + " " + level() + " " + client.label() + " #" + repeat;
    }
}
