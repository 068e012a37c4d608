package loomylin.lab.experiment.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import loomylin.lab.bench.BenchFlags;
import loomylin.server.cli.Flags;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;

/** The bound, admission and db presets' flags read once into their options: defaults, environment variables, one-line mistakes. */
class BoundOptionsTest {
    static Flags bench(String preset, Map<String, String> env, String... args) {
        return Flags.parse(Stream.concat(Stream.of("--preset", preset, "--out", "x", "--wrk", "/bin/true", "--oha", "/bin/true"), Stream.of(args))
                .toArray(String[]::new), BenchFlags.FLAGS, env);
    }

    @Test
    void boundReadsItsThreeClientCountsAndWholeSeconds() {
        Bound.Options d = Bound.Options.of(bench("bound", Map.of(), "--concurrency", "10,20,30"));
        assertEquals(List.of(10, 20, 30), d.clients());
        assertEquals(Bound.DURATION, d.duration());
        assertEquals(Bound.POOLS, d.pools());
        Bound.Options env = Bound.Options.of(bench("bound", Map.of("LOOMYLIN_DURATION", "5s", "LOOMYLIN_CONCURRENCY", "1,2,3", "LOOMYLIN_POOLS", "loom")));
        assertEquals(List.of(Duration.ofSeconds(5), List.of(1, 2, 3), List.of("loom")), List.of(env.duration(), env.clients(), env.pools()));
    }

    @Test
    void admissionReadsItsLoadsAndDbItsPoolSizes() {
        AdmissionBench.Options a = AdmissionBench.Options.of(bench("admission", Map.of("LOOMYLIN_LOADS", "retry-after,open")));
        assertEquals(EnumSet.of(AdmissionBench.Loop.OPEN, AdmissionBench.Loop.RETRY_AFTER), a.loops());
        assertEquals(List.of(AdmissionBench.WINDOW, AdmissionBench.REPEAT), List.of(a.run().window(), a.run().repeat()));
        assertEquals(EnumSet.allOf(AdmissionBench.Loop.class), AdmissionBench.Options.of(bench("admission", Map.of())).loops());
        DbBench.Options db = DbBench.Options.of(bench("db", Map.of("LOOMYLIN_DB_POOLS", "5,7"), "--repeat", "2"));
        assertEquals(List.of(5, 7), db.dbPools());
        assertEquals(2, db.run().repeat());
    }

    @Test
    void mistakesAreOneLineUsageErrors() {
        List<Function<Flags, ?>> readers = List.of(Bound.Options::of, AdmissionBench.Options::of, DbBench.Options::of);
        List<String> presets = List.of("bound", "admission", "db");
        for (int i = 0; i < readers.size(); i++) {
            for (String[] args : List.of(new String[] {"--duration", "1500ms"}, new String[] {"--pools", "nope"}, new String[] {"--timeout", "0"})) {
                Function<Flags, ?> reader = readers.get(i);
                Flags flags = bench(presets.get(i), Map.of(), Stream.concat(Stream.of("--concurrency", "1,1,1"), Stream.of(args)).toArray(String[]::new));
                UsageError e = assertThrows(UsageError.class, () -> reader.apply(flags), presets.get(i) + " " + String.join(" ", args));
                assertFalse(e.getMessage().contains("\n"), e.getMessage());
            }
        }
        for (Runnable m : List.<Runnable>of(() -> Bound.Options.of(bench("bound", Map.of(), "--concurrency", "1,2")),
                () -> AdmissionBench.Options.of(bench("admission", Map.of(), "--loads", "open,never")),
                () -> DbBench.Options.of(bench("db", Map.of(), "--db-pools", "0")))) {
            UsageError e = assertThrows(UsageError.class, m::run);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
