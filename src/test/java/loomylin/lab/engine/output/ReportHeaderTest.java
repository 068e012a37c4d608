package loomylin.lab.engine.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.measure.Measured;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.RunSpec;
import loomylin.server.jetty.PoolKind;
import org.junit.jupiter.api.Test;

/** report.md's first line counts the runs against the plan of every invocation the CSV holds, not of one. */
class ReportHeaderTest {

    private static RunResult run(RunSpec spec, int invocation) {
        return new RunResult(spec, "java", 1000, 1000, 1000, 0, 20, 50, 49, new Measured.Latency(10, 11, 12, 13, 14), 2.5, 100_000,
                120_000, 3_000_000, 40, 1.5, 4.0, 6.0, false, 0.1).inInvocation(invocation);
    }

    @Test
    void theRunsMadeAreCountedAgainstThePlanTimesTheInvocations() {
        RunSpec a = new RunSpec(PoolKind.parse("loom"), Endpoint.parse("wait-blocking?ms=10"), 50, 0, Client.WRK, 1);
        RunSpec b = new RunSpec(PoolKind.parse("qtp:200"), Endpoint.parse("wait-blocking?ms=10"), 50, 0, Client.WRK, 1);
        List<RunSpec> plan = List.of(a, b);
        assertEquals("1 of 2 runs", Report.runsMade(plan, List.of(run(a, 1))));
        assertEquals("2 of 2 runs", Report.runsMade(plan, List.of(run(a, 1), run(b, 1))));
        assertEquals("4 of 4 runs (2 invocations of 2)", Report.runsMade(plan, List.of(run(a, 1), run(b, 1), run(a, 2), run(b, 2))));
        assertEquals("3 of 4 runs (2 invocations of 2)", Report.runsMade(plan, List.of(run(a, 1), run(b, 1), run(a, 2))));
    }
}
