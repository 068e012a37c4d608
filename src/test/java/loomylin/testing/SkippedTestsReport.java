package loomylin.testing;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints every skipped test with its reason when a test run ends, one line each, so the end of the build
 * says what did not run and why (e.g. {@code SKIPPED BenchSmokeTest.smokePreset...(): needs hey: apt-get install hey}).
 * Registered through META-INF/services; covers tests skipped by an assumption and by {@code @Disabled}.
 */
public final class SkippedTestsReport implements TestExecutionListener {
    private final List<String> skipped = new ArrayList<>();
    private TestPlan plan;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        skipped.clear();
    }

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        skipped.add(name(test) + ": " + reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            skipped.add(name(test) + ": " + result.getThrowable().map(Throwable::getMessage)
                    .map(m -> m.replaceFirst("^Assumption failed: ", "")).orElse("aborted"));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (skipped.isEmpty()) return;
        StringBuilder out = new StringBuilder(skipped.size() + " tests skipped:" + System.lineSeparator());
        skipped.forEach(s -> out.append("  SKIPPED ").append(s).append(System.lineSeparator()));
        // The process's own stderr, not System.err: surefire redirects System.err to a report file
        // (redirectTestOutputToFile) but copies a test JVM's native stderr to the build's console.
        PrintStream console = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        console.print(out);
        console.flush();
    }

    private String name(TestIdentifier test) {
        StringBuilder name = new StringBuilder(test.getDisplayName());
        for (TestIdentifier at = parent(test); at != null; at = parent(at)) {
            if (at.getParentId().isEmpty()) break; // the engine
            name.insert(0, at.getDisplayName() + " > ");
        }
        return name.toString();
    }

    private TestIdentifier parent(TestIdentifier test) {
        return plan == null ? null : plan.getParent(test).orElse(null);
    }
}
