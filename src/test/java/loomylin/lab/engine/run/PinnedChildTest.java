package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import loomylin.lab.engine.run.CpuSets.Role;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;

/** A process started through CpuSets.wrap really runs on its set: the kernel's Cpus_allowed_list of its pid says so. */
@IntegrationTest
class PinnedChildTest {
    @Test
    void aPinnedChildRunsOnItsSet() throws Exception {
        Tools.assumeOnPath("taskset", "apt-get install util-linux");
        CpuSet allowed = CpuSets.allowed(Path.of("/proc/self/status")).orElseThrow();
        String last = Integer.toString(allowed.cpus().last());
        Map<Role, String> raw = new EnumMap<>(Role.class);
        raw.put(Role.CLIENT, last);
        CpuSets sets = CpuSets.of(raw, Path.of("/proc/self/status"), System.getenv("PATH"));
        Process child = new ProcessBuilder(sets.wrap(Role.CLIENT, List.of("sleep", "30"))).start();
        try {
            String list = "";
            for (int i = 0; i < 100 && !list.equals(last); i++) { // taskset sets the mask, then execs sleep in the same pid
                list = Files.readAllLines(Path.of("/proc", Long.toString(child.pid()), "status")).stream()
                        .filter(l -> l.startsWith("Cpus_allowed_list:")).map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("");
                if (!list.equals(last)) Thread.sleep(20);
            }
            assertEquals(last, list);
        } finally {
            child.destroy();
            child.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
