package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import loomylin.server.jetty.HopClientKind;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server JVM started cold and measured at a low rate (issue 50): its warm-up either goes on until the JIT is
 * quiet or the run is marked cold and decides nothing, and the window's CPU is split by thread. A fresh JVM
 * compiles, so the first slice's compiler threads must show CPU: a split that reads nothing fails here. No timing is
 * asserted.
 */
@IntegrationTest
class ColdServerWarmupTest {

    @Test
    void aColdServerAtALowRateIsWarmedUntilItsJitIsQuietOrMarkedCold(@TempDir Path dir) throws Exception {
        Path oha = Tools.assumeOnPath("oha", "cargo install oha --version 1.16.0 --locked");
        Path log = Files.writeString(dir.resolve("server.log"), "");
        try (ServerProcess server = ServerProcess.server("loom", "java", "256m", FreePort.pick(), URI.create("http://127.0.0.1:1"), HopClientKind.URL, log)) {
            server.awaitPool("loom", "java");
            FixedLoad.Load load = new FixedLoad.Load(150, 8, Duration.ofSeconds(1), Duration.ZERO, 2, 10);
            FixedLoad.Window w = FixedLoad.measure(server, server.uri("/mixed?cpu=984&sleep=20&file=0"), oha, load, Runtime.getRuntime().availableProcessors(), 90, null);

            List<Double> jitPercents = Arrays.stream(w.jit().warmupJitPercents().split(";")).map(Double::parseDouble).toList();
            assertEquals(w.warmupSlices(), jitPercents.size(), "every warm-up slice recorded: " + w);
            assertEquals(w.warmupSlices(), w.jit().warmupCosts().split(";").length, w.toString());
            assertTrue(w.warmupSlices() >= Warmup.MIN_SLICES && w.warmupSlices() <= FixedLoad.MAX_SLICES, w.toString());
            assertTrue(jitPercents.getFirst() > 0, "a fresh JVM's compiler threads worked in its first slice: " + jitPercents);
            if (w.jit().warm()) {
                assertTrue(jitPercents.getLast() <= 100 * Warmup.QUIET_SHARE, "warm: the last slice was quiet: " + jitPercents);
                assertFalse(w.marks().contains("cold"), w.marks().toString());
            } else {
                assertEquals(FixedLoad.MAX_SLICES, w.warmupSlices(), "cold only once the slices ran out: " + jitPercents);
                assertTrue(w.marks().contains("cold") && !w.decides(), w.marks().toString());
            }
            double jitS = w.jit().window().jitS();
            double gcS = w.jit().window().gcS();
            assertTrue(w.cpuS() > 0 && jitS >= 0 && gcS >= 0 && jitS + gcS <= w.cpuS(), "the window's CPU split: " + w.jit().window());
            List<String> fields = FixedLoad.Window.COLUMNS.stream().map(c -> c.field(w)).toList();
            assertTrue(fields.contains(Boolean.toString(w.jit().warm())), fields.toString());
        }
    }
}
