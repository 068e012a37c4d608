package loomylin.bench;

import loomylin.UsageError;

/** Placeholder until the benchmark harness lands. */
public final class Bench {
    private Bench() {
    }

    public static void main(String[] args) {
        throw new UsageError("bench is not built yet");
    }
}
