package loomylin.server.jetty.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import loomylin.testing.ChildJvm;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Jetty's {@code QoSHandler} in front of virtual threads, as docs/reliability/qoshandler-wedge.md tells it: the
 * stand-alone reproducer {@link QoSHandlerWedge} (Jetty only), each run in a fresh child JVM on this test's own
 * java, so that {@code -Djvm=JAVA} (surefire's and failsafe's JVM, e.g. {@code "$(scripts/jdk21.sh)"}) picks the
 * JDK. The child gets two carriers, as the machine of the committed runs had, so that a machine with more cores
 * runs the same case.
 *
 * <p>From JDK 24 (JEP 491: a virtual thread that contends for a monitor leaves its carrier) it must wedge within
 * {@link #RUNS} runs of at most {@link #ROUNDS} rounds, and its thread dump must show the page's mechanism: a
 * {@code QoSHandler.resume} spinning and a suspender in {@code ConcurrentHashMap.compute}. The test fails the day
 * Jetty fixes it; then the page and the reason for Loomylin's own limit are to be read again. Before JDK 24,
 * where a virtual thread blocked on a monitor keeps its carrier, no run may wedge (the committed runs: none of 5
 * on JDK 21). The dump of the first wedge is kept in {@link #DUMPS}. {@code -Dloomylin.qosRuns} and
 * {@code -Dloomylin.qosRounds} set the runs and rounds.
 */
@EnabledOnOs(OS.LINUX)
@IntegrationTest
class QoSHandlerWedgeTest {
    /** Runs, each a fresh JVM; on a JDK that wedges the first wedge ends the test. */
    static final int RUNS = Integer.getInteger("loomylin.qosRuns", 5);
    /** Rounds per run: a 1 s burst and a probe each, so a run that never wedges takes about 25 s. */
    static final int ROUNDS = Integer.getInteger("loomylin.qosRounds", 20);
    /** Carriers of the child's virtual-thread scheduler: the cores of the machine the committed runs had. */
    static final int CARRIERS = 2;
    /** The first wedge's thread dump, virtual threads included, one file per JDK version. */
    static final Path DUMPS = Path.of("target", "qos-wedge");
    /** The reproducer's exit statuses: every probe answered, and wedged (4 is neither within its own time limit). */
    static final int NOT_WEDGED = 0, WEDGED = 3;

    @Test
    void theReproducerWedgesFromJdk24AndNotBefore() throws Exception {
        assertTrue(RUNS >= 1 && RUNS <= 100, "-Dloomylin.qosRuns must be 1-100, got " + RUNS);
        assertTrue(ROUNDS >= 1 && ROUNDS <= 200, "-Dloomylin.qosRounds must be 1-200, got " + ROUNDS);
        Runtime.Version jdk = Runtime.version();
        boolean monitorsReleaseCarriers = jdk.feature() >= 24;
        Files.createDirectories(DUMPS);
        Path dump = DUMPS.resolve("threads-" + jdk + ".json").toAbsolutePath();
        List<String> runs = new ArrayList<>();
        for (int run = 1; run <= RUNS; run++) {
            Files.deleteIfExists(dump);
            String output;
            int status;
            // as the committed runs ran it: a 512 MB heap and the whole JIT (ChildJvm's defaults are 256 MB and C1 only)
            try (ChildJvm child = ChildJvm.command("-Xmx512m", "-XX:TieredStopAtLevel=4",
                    "-Djdk.virtualThreadScheduler.parallelism=" + CARRIERS, "-cp", ChildJvm.classPath(),
                    QoSHandlerWedge.class.getName(), String.valueOf(ROUNDS), dump.toString()).start()) {
                // the reproducer ends itself after 30 s plus 10 s a round; the extra 10 s are for its JVM's start
                status = child.exit(Duration.ofSeconds(40L + 10L * ROUNDS));
                output = child.output();
            }
            String last = output.lines().filter(l -> l.startsWith("WEDGED") || l.startsWith("NOT WEDGED")).reduce((a, b) -> b).orElse("(no verdict)");
            runs.add("run " + run + ": " + last);
            if (status != WEDGED && status != NOT_WEDGED) fail("the reproducer on Java " + jdk + " ended with status " + status + ", neither wedged nor done:\n" + output);
            if (status == WEDGED) {
                if (!monitorsReleaseCarriers) fail("the reproducer wedged on Java " + jdk + ", where a blocked virtual thread keeps its carrier; thread dump " + dump + "\n" + output);
                assertTrue(Files.isRegularFile(dump), "the wedged run's thread dump " + dump + ":\n" + output);
                String threads = Files.readString(dump);
                assertTrue(threads.contains("org.eclipse.jetty.server.handler.QoSHandler.resume"), "a thread spinning in QoSHandler.resume, in " + dump);
                assertTrue(threads.contains("java.util.concurrent.ConcurrentHashMap.compute"), "a suspender in ConcurrentHashMap.compute, in " + dump);
                System.out.println("Java " + jdk + ": wedged in run " + run + " of at most " + RUNS + "; " + String.join("; ", runs) + "; thread dump " + dump);
                return;
            }
        }
        System.out.println("Java " + jdk + ": wedged in none of " + RUNS + " runs of " + ROUNDS + " rounds");
        assertFalse(monitorsReleaseCarriers, "Jetty's QoSHandler no longer wedges on virtual threads on Java " + jdk + " (" + RUNS + " runs of "
                + ROUNDS + " rounds: " + String.join("; ", runs) + "): has Jetty fixed it? Read docs/reliability/qoshandler-wedge.md again");
    }
}
