package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import loomylin.server.cli.UsageError;
import loomylin.server.proc.ProcLimits;
import org.junit.jupiter.api.Test;
import loomylin.lab.bench.BenchFlags;

/** /proc/self/limits recorded on the project's machine: 20000 open files. */
class DescriptorCheckTest {

    private static Path recorded() throws URISyntaxException {
        return Path.of(DescriptorCheckTest.class.getResource("/bench/limits").toURI());
    }

    private static List<RunSpec> runsAt(String concurrency) {
        return BenchFlags.parse(new String[] {"--pools", "loom", "--endpoints", "hops-async", "--concurrency", concurrency}, Map.of()).runs();
    }

    @Test
    void readsTheSoftLimit() throws URISyntaxException {
        assertEquals(20000, ProcLimits.openFiles(recorded()).getAsLong());
        assertTrue(ProcLimits.openFiles(Path.of("/no/such/limits")).isEmpty());
    }

    @Test
    void twoThousandClientsFitTenThousandDoNot() throws URISyntaxException {
        Path limits = recorded();
        assertDoesNotThrow(() -> DescriptorCheck.check(runsAt("50,2000"), limits));
        UsageError e = assertThrows(UsageError.class, () -> DescriptorCheck.check(runsAt("10000"), limits));
        assertTrue(e.getMessage().contains("ulimit -n"), e.getMessage());
    }

    @Test
    void withoutBackendCallsAServerHoldsOneSocketPerClient() throws URISyntaxException {
        Path limits = recorded();
        List<RunSpec> at18000 = BenchFlags.parse(new String[] {"--pools", "loom", "--endpoints", "wait-blocking?ms=1000", "--concurrency", "18000"}, Map.of()).runs();
        assertDoesNotThrow(() -> DescriptorCheck.check(at18000, limits));
        List<RunSpec> at19900 = BenchFlags.parse(new String[] {"--pools", "loom", "--endpoints", "wait-blocking?ms=1000", "--concurrency", "19900"}, Map.of()).runs();
        UsageError e = assertThrows(UsageError.class, () -> DescriptorCheck.check(at19900, limits));
        assertTrue(e.getMessage().contains("concurrency 19900 needs about 20100 open files"), e.getMessage());
    }
}
