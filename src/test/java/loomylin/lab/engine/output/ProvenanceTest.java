package loomylin.lab.engine.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import loomylin.server.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** provenance.json and the report's provenance section: every field there, read from what was given. */
class ProvenanceTest {
    private static final Host HOST = new Host("AMD EPYC 7B13", 2, 24_000_000, "Debian GNU/Linux 13", "6.1.0 amd64", true,
            "hypervisor flag; systemd-detect-virt: kvm");

    private static Provenance sample(boolean dirty) {
        Commit commit = new Commit("0123456789abcdef0123456789abcdef01234567", dirty, Optional.of(Path.of("/repo")));
        return new Provenance("2026-11-24T18:00:00Z", "java -jar loomylin.jar bench --preset smoke", commit, "gfx/results/smoke", HOST,
                "OpenJDK 64-Bit Server VM 25+36 (Eclipse Adoptium)", "12.1.14", "7.2.3",
                Map.of("hey", "0.1.4-2 (Debian package) (/usr/bin/hey)", "wrk", "wrk 4.2.0 (/usr/bin/wrk)"),
                Map.of("server", "0", "client", "1", "backend", Provenance.ALL_CPUS), -1);
    }

    @Test
    void theJsonHoldsEveryField() {
        Map<?, ?> doc = (Map<?, ?>) Json.parse(sample(true).json());
        assertEquals(1, doc.get("schema"));
        assertEquals("2026-11-24T18:00:00Z", doc.get("date"));
        assertEquals("java -jar loomylin.jar bench --preset smoke", doc.get("command"));
        assertEquals("0123456789abcdef0123456789abcdef01234567", doc.get("commit"));
        assertEquals(true, doc.get("dirty"));
        assertEquals("gfx/results/smoke", doc.get("out"));
        Map<?, ?> machine = (Map<?, ?>) doc.get("machine");
        assertEquals("AMD EPYC 7B13", machine.get("cpu"));
        assertEquals(2, machine.get("cores"));
        assertEquals(24_000_000, machine.get("memory_kb"));
        assertEquals("6.1.0 amd64", machine.get("kernel"));
        assertEquals(true, machine.get("virtualised"));
        assertEquals("hypervisor flag; systemd-detect-virt: kvm", machine.get("virtualisation"));
        assertEquals("OpenJDK 64-Bit Server VM 25+36 (Eclipse Adoptium)", doc.get("jdk"));
        assertEquals("12.1.14", doc.get("jetty"));
        assertEquals("7.2.3", doc.get("javalin"));
        assertEquals(Map.of("hey", "0.1.4-2 (Debian package) (/usr/bin/hey)", "wrk", "wrk 4.2.0 (/usr/bin/wrk)"), doc.get("tools"));
        assertEquals(Map.of("server", "0", "client", "1", "backend", "all"), doc.get("cpu_sets"));
        assertFalse(doc.containsKey("duration_s"), "a bench still running has no duration yet");
    }

    @Test
    void aFinishedBenchSaysHowLongItTook() {
        Provenance done = sample(false).finishedAfter(3_300);
        assertEquals(3_300, ((Map<?, ?>) Json.parse(done.json())).get("duration_s"));
        assertTrue(done.markdown().contains("| Date | 2026-11-24T18:00:00Z, took 55 min |"), done.markdown());
    }

    @Test
    void theFileGoesBesideTheResults(@TempDir Path dir) throws Exception {
        sample(false).write(dir);
        Map<?, ?> doc = (Map<?, ?>) Json.parse(Files.readString(dir.resolve(Provenance.FILE)));
        assertEquals(false, doc.get("dirty"));
    }

    /** The file read back is the provenance written, for a running bench (no duration) and a finished one; only the checkout's root is not in the file. */
    @Test
    void readGivesBackWhatWasWritten(@TempDir Path dir) throws Exception {
        Commit commit = new Commit("0123456789abcdef0123456789abcdef01234567", true, Optional.empty());
        Provenance running = new Provenance("2026-11-24T18:00:00Z", "java -jar loomylin.jar bench --pools loom --endpoints mixed?cpu=1000&sleep=0",
                commit, "gfx/results/x", new Host("", 2, 24_000_000_000L, "Debian \"trixie\"", "6.1.0 amd64", null, "no cpu flags read; systemd-detect-virt: not run"),
                "OpenJDK 64-Bit Server VM 25+36 (Eclipse Adoptium)", "12.1.14", "7.2.3", Map.of("wrk", "wrk 4.2.0 (/usr/bin/wrk)"),
                Map.of("server", "0-1", "client", Provenance.ALL_CPUS), -1);
        for (Provenance p : List.of(running, running.finishedAfter(3_515), sample(false).finishedAfter(60))) {
            Provenance written = new Provenance(p.date(), p.command(), new Commit(p.commit().hash(), p.commit().dirty(), Optional.empty()), p.out(), p.host(),
                    p.jdk(), p.jetty(), p.javalin(), p.tools(), p.cpuSets(), p.durationS());
            written.write(dir);
            assertEquals(written, Provenance.read(dir));
            assertEquals(written.json(), Provenance.read(dir).json());
        }
    }

    /** A file from before duration_s and cpu_sets were recorded reads with neither; one that is not a provenance is refused in one line. */
    @Test
    void anOlderFileReadsWithDefaultsAndAStrangerIsRefused(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(Provenance.FILE), sample(false).json().replaceAll("(?s),\\s*\"cpu_sets\" : \\{[^}]*}", ""));
        Provenance old = Provenance.read(dir);
        assertEquals(-1, old.durationS());
        assertEquals(Map.of(), old.cpuSets());
        assertEquals(sample(false).tools(), old.tools());
        assertEquals(HOST, old.host());
        for (String stranger : List.of("[1]", "{\"schema\": 2}", "not json", sample(false).json().replace("\"command\"", "\"cmd\""))) {
            Files.writeString(dir.resolve(Provenance.FILE), stranger);
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Provenance.read(dir));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void theReportSectionNamesCommitMachineVersionsToolsAndCpuSets() {
        String md = sample(true).markdown();
        assertTrue(md.startsWith("## Provenance\n"), md);
        for (String fact : List.of("`0123456789abcdef0123456789abcdef01234567` (dirty", "2026-11-24T18:00:00Z", "`java -jar loomylin.jar bench --preset smoke`",
                "`gfx/results/smoke`", "2 cores, AMD EPYC 7B13, 22.9 GiB, virtualised (hypervisor flag; systemd-detect-virt: kvm)",
                "kernel 6.1.0 amd64", "| Jetty, Javalin | 12.1.14, 7.2.3 |", "| hey | 0.1.4-2 (Debian package)", "| wrk | wrk 4.2.0",
                "backend all CPUs (not pinned), client CPUs 1, server CPUs 0"))
            assertTrue(md.contains(fact), "missing " + fact + " in\n" + md);
        assertFalse(sample(false).markdown().contains("dirty"));
    }

    @Test
    void theVersionsComeFromTheClassPath() {
        assertTrue(Provenance.javalinVersion().matches("7\\.\\d+\\.\\d+.*"), Provenance.javalinVersion());
        assertTrue(org.eclipse.jetty.util.Jetty.VERSION.startsWith("12."), org.eclipse.jetty.util.Jetty.VERSION);
        assertTrue(Provenance.runningJdk().contains(System.getProperty("java.runtime.version")));
    }

    @Test
    void pathsInsideTheCheckoutAreRelative() {
        Commit commit = new Commit("abc", false, Optional.of(Path.of("/repo")));
        assertEquals("gfx/results/full", commit.relative(Path.of("/repo/gfx/results/full")));
        assertEquals("/tmp/bench", commit.relative(Path.of("/tmp/bench")));
        assertEquals("/repository-next-door/x", commit.relative(Path.of("/repository-next-door/x")), "a sibling whose name starts alike is outside");
        assertEquals("/tmp/x", new Commit(Commit.UNKNOWN, false, Optional.empty()).relative(Path.of("/tmp/x")));
    }

    @Test
    void virtualisationFromTheHypervisorFlagOrSystemdDetectVirt() {
        List<String> guest = List.of("processor\t: 0", "flags\t\t: fpu vme sse2 hypervisor lahf_lm");
        List<String> metal = List.of("processor\t: 0", "flags\t\t: fpu vme sse2 lahf_lm");
        assertEquals(true, Host.virtualised(guest, ""));
        assertEquals(true, Host.virtualised(metal, "docker"));
        assertEquals(false, Host.virtualised(metal, "none"));
        assertEquals(false, Host.virtualised(metal, ""));
        assertNull(Host.virtualised(List.of(), ""), "no evidence either way");
        assertEquals("hypervisor flag; systemd-detect-virt: not run", Host.virtualisation(guest, ""));
        assertEquals("no hypervisor flag; systemd-detect-virt: none", Host.virtualisation(metal, "none"));
    }
}
