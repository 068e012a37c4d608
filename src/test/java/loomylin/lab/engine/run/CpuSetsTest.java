package loomylin.lab.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import loomylin.lab.engine.run.CpuSets.Role;
import loomylin.server.cli.UsageError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --server-cpus, --client-cpus, --backend-cpus: the lists they take, what they refuse, the command they make. */
class CpuSetsTest {
    @TempDir
    Path dir;

    private Path status(String allowed) throws Exception {
        Path file = dir.resolve("status");
        Files.writeString(file, "Name:\tjava\nThreads:\t20\n" + (allowed == null ? "" : "Cpus_allowed_list:\t" + allowed + "\n"));
        return file;
    }

    /** A directory holding an executable named taskset, as the PATH to search. */
    private String pathWithTaskset() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path taskset = Files.writeString(bin.resolve("taskset"), "#!/bin/sh\n");
        taskset.toFile().setExecutable(true);
        return bin.toString();
    }

    private static Map<Role, String> flags(String server, String client, String backend) {
        Map<Role, String> raw = new EnumMap<>(Role.class);
        raw.put(Role.SERVER, server);
        raw.put(Role.CLIENT, client);
        raw.put(Role.BACKEND, backend);
        return raw;
    }

    @Test
    void theKernelsListFormat() {
        assertEquals(List.of(0), List.copyOf(CpuSet.parse("0").cpus()));
        assertEquals(List.of(0, 1), List.copyOf(CpuSet.parse("0-1").cpus()));
        assertEquals(List.of(0, 2, 3, 4, 7), List.copyOf(CpuSet.parse(" 0,2-4,7 ").cpus()));
        assertEquals("0-2,5", CpuSet.parse("5,0,1,2").toString());
        assertEquals("3", CpuSet.parse("3-3").toString());
    }

    @Test
    void malformedListsAreRefused() {
        for (String bad : List.of("", "a", "1-", "-1", "2-1", "0,,1", "0;1", "1.5", "0-99999"))
            assertThrows(IllegalArgumentException.class, () -> CpuSet.parse(bad), bad);
    }

    @Test
    void aBadFlagIsOneUsageLineNamingTheFlag() throws Exception {
        UsageError e = assertThrows(UsageError.class, () -> CpuSets.of(flags("x", null, null), status("0-1"), pathWithTaskset()));
        assertTrue(e.getMessage().startsWith("--server-cpus takes a CPU list like 0, 0-1 or 0,2"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }

    @Test
    void cpusTheMachineDoesNotGiveAreRefused() throws Exception {
        UsageError e = assertThrows(UsageError.class, () -> CpuSets.of(flags(null, "1-3", null), status("0-1"), pathWithTaskset()));
        assertEquals("--client-cpus 1-3: this machine lets the bench use CPUs 0-1 only, not 2-3", e.getMessage());
    }

    @Test
    void withoutLinuxOrTasksetAnyFlagIsRefused() throws Exception {
        UsageError noLinux = assertThrows(UsageError.class, () -> CpuSets.of(flags("0", null, null), dir.resolve("missing"), pathWithTaskset()));
        assertTrue(noLinux.getMessage().startsWith("--server-cpus pins processes with taskset, which needs Linux"), noLinux.getMessage());
        UsageError noLine = assertThrows(UsageError.class, () -> CpuSets.of(flags("0", null, null), status(null), pathWithTaskset()));
        assertTrue(noLine.getMessage().contains("needs Linux"), noLine.getMessage());
        UsageError noTaskset = assertThrows(UsageError.class, () -> CpuSets.of(flags(null, "0", "1"), status("0-1"), dir.resolve("empty").toString()));
        assertEquals("--client-cpus, --backend-cpus pins processes with taskset, which is not on PATH; install it with: apt install util-linux",
                noTaskset.getMessage());
    }

    @Test
    void noFlagsPinNothingAndNeedNoTaskset() throws Exception {
        CpuSets none = CpuSets.of(flags(null, null, null), dir.resolve("missing"), "");
        assertSame(CpuSets.NONE, none);
        assertEquals(List.of("hey", "-c", "5"), none.wrap(Role.CLIENT, List.of("hey", "-c", "5")));
        assertEquals(Map.of("server", "all", "client", "all", "backend", "all"), none.describe());
        assertEquals(2, none.cpus(Role.CLIENT, 2));
    }

    @Test
    void aPinnedRoleRunsUnderTasksetTheOthersAsTheyWere() throws Exception {
        String path = pathWithTaskset();
        CpuSets sets = CpuSets.of(flags("1", "0", null), status("0-1"), path);
        String taskset = Path.of(path, "taskset").toAbsolutePath().toString();
        assertEquals(List.of(taskset, "-c", "1", "java", "-cp", "x"), sets.wrap(Role.SERVER, List.of("java", "-cp", "x")));
        assertEquals(List.of(taskset, "-c", "0", "hey"), sets.wrap(Role.CLIENT, List.of("hey")));
        assertEquals(List.of("java"), sets.wrap(Role.BACKEND, List.of("java")));
        assertEquals(Map.of("server", "1", "client", "0", "backend", "all"), sets.describe());
        assertEquals(1, sets.cpus(Role.CLIENT, 2));
    }

    @Test
    void theAllowedCpusComeFromProcSelfStatus() throws Exception {
        assertEquals("0-1", CpuSets.allowed(status("0-1")).orElseThrow().toString());
        assertTrue(CpuSets.allowed(status(null)).isEmpty());
    }

    /** A finished bench's lists, read back by --rerender: CPUs this machine lacks are kept, no taskset is needed, a malformed list names its flag. */
    @Test
    void recordedListsAreReadWithoutThisMachine() {
        CpuSets sets = CpuSets.recorded(flags("4000", "1-2", null));
        assertEquals(Map.of("server", "4000", "client", "1-2", "backend", "all"), sets.describe());
        assertThrows(IllegalStateException.class, () -> sets.wrap(Role.SERVER, List.of("java")), "a recorded set starts nothing");
        assertEquals(List.of("java"), sets.wrap(Role.BACKEND, List.of("java")));
        assertSame(CpuSets.NONE, CpuSets.recorded(flags(null, null, null)));
        UsageError e = assertThrows(UsageError.class, () -> CpuSets.recorded(flags(null, "1-0", null)));
        assertTrue(e.getMessage().startsWith("--client-cpus takes a CPU list like 0, 0-1 or 0,2 (the range 1-0 runs backwards)"), e.getMessage());
    }
}
