package loomylin.lab.engine.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import loomylin.lab.engine.load.Client;
import loomylin.lab.engine.load.ClientBinary;

/** What the bench ran on, for the report: numbers only mean something next to the machine that made them. */
public record Machine(int cores, long memoryKb, String cpu, String jdk, String os, Map<Client, String> clients, String date) {

    public static Machine describe(Map<Client, Path> tools) {
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vendor") + ")";
        String os = field(read("/etc/os-release"), "PRETTY_NAME=").replace("\"", "");
        os = (os.isEmpty() ? System.getProperty("os.name") : os) + ", kernel " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
        String memory = field(read("/proc/meminfo"), "MemTotal:").replace("kB", "").trim();
        Map<Client, String> clients = new java.util.EnumMap<>(Client.class);
        tools.forEach((c, path) -> clients.put(c, ClientBinary.version(c, path)));
        return new Machine(Runtime.getRuntime().availableProcessors(), memory.matches("\\d+") ? Long.parseLong(memory) : 0,
                field(read("/proc/cpuinfo"), "model name").replaceFirst("^\\s*:\\s*", ""), jdk, os, clients,
                OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            return "";
        }
    }

    /** The rest of the first line starting with {@code prefix}, or "". */
    private static String field(String text, String prefix) {
        for (String line : text.split("\n")) if (line.startsWith(prefix)) return line.substring(prefix.length()).trim();
        return "";
    }
}
