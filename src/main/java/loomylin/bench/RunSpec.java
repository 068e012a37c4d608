package loomylin.bench;

import loomylin.jetty.PoolKind;


/** One measured run: a fresh server on {@code pool}, loaded on {@code endpoint} by {@code concurrency} clients. */
record RunSpec(PoolKind pool, Endpoint endpoint, int concurrency, int requests) {

    /** Identifies a run regardless of how many requests it sends: a plan holds each key once. */
    String key() {
        return pool + " " + endpoint + " " + concurrency;
    }

    String describe() {
        return pool + " " + endpoint + " c=" + concurrency;
    }
}
