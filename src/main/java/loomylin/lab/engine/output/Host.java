package loomylin.lab.engine.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The machine a result was measured on.
 *
 * @param cpu            the CPU model (/proc/cpuinfo "model name"), "" where unknown
 * @param cores          the processors this JVM may use
 * @param memoryKb       MemTotal of /proc/meminfo, 0 where unknown
 * @param os             the distribution (/etc/os-release PRETTY_NAME) or os.name
 * @param kernel         the kernel release (os.version) and architecture
 * @param virtualised    true when /proc/cpuinfo has the "hypervisor" flag or systemd-detect-virt names a
 *                       virtual machine or container; null when neither could be read
 * @param virtualisation what that rests on, e.g. "hypervisor flag; systemd-detect-virt: kvm"
 */
public record Host(String cpu, int cores, long memoryKb, String os, String kernel, Boolean virtualised, String virtualisation) {

    /** This machine, read from /proc, /etc/os-release and systemd-detect-virt (each optional). */
    public static Host here() {
        List<String> cpuinfo = lines(Path.of("/proc/cpuinfo"));
        String memory = field(lines(Path.of("/proc/meminfo")), "MemTotal:").replace("kB", "").trim();
        String os = field(lines(Path.of("/etc/os-release")), "PRETTY_NAME=").replace("\"", "");
        String detect = detectVirt();
        return new Host(field(cpuinfo, "model name").replaceFirst("^\\s*:\\s*", ""), Runtime.getRuntime().availableProcessors(),
                memory.matches("\\d+") ? Long.parseLong(memory) : 0, os.isEmpty() ? System.getProperty("os.name") : os,
                System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                virtualised(cpuinfo, detect), virtualisation(cpuinfo, detect));
    }

    /**
     * Whether the machine is virtualised: the CPU's "hypervisor" flag (set by every common hypervisor) or
     * systemd-detect-virt's answer ("none" on bare metal, "" when it did not run). Null when there is no evidence either way.
     */
    static Boolean virtualised(List<String> cpuinfo, String detectVirt) {
        boolean flag = hypervisorFlag(cpuinfo);
        if (flag || (!detectVirt.isEmpty() && !detectVirt.equals("none"))) return true;
        if (detectVirt.equals("none") || !field(cpuinfo, "flags").isEmpty()) return false;
        return null;
    }

    static String virtualisation(List<String> cpuinfo, String detectVirt) {
        String flag = field(cpuinfo, "flags").isEmpty() ? "no cpu flags read" : hypervisorFlag(cpuinfo) ? "hypervisor flag" : "no hypervisor flag";
        return flag + "; systemd-detect-virt: " + (detectVirt.isEmpty() ? "not run" : detectVirt);
    }

    /** The memory in GiB with one decimal. */
    public String memoryGib() {
        return String.format(java.util.Locale.ROOT, "%.1f", memoryKb / 1024.0 / 1024.0);
    }

    private static boolean hypervisorFlag(List<String> cpuinfo) {
        return List.of(field(cpuinfo, "flags").replaceFirst("^\\s*:\\s*", "").split("\\s+")).contains("hypervisor");
    }

    /** systemd-detect-virt's one word (it exits 1 when it prints "none"), or "" when it is missing. */
    private static String detectVirt() {
        Process p = null;
        try {
            p = new ProcessBuilder("systemd-detect-virt").redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String out = new String(p.getInputStream().readNBytes(256), StandardCharsets.UTF_8).strip();
            return p.waitFor(5, TimeUnit.SECONDS) && out.matches("[a-z0-9_-]{1,40}") ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } finally {
            if (p != null && p.isAlive()) p.destroyForcibly();
        }
    }

    /** A file's lines; none when unreadable. Read whole (not Files.readString, which can truncate /proc files). */
    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The rest of the first line starting with {@code prefix}, trimmed, or "". */
    static String field(List<String> lines, String prefix) {
        for (String line : lines) if (line.startsWith(prefix)) return line.substring(prefix.length()).trim();
        return "";
    }
}
