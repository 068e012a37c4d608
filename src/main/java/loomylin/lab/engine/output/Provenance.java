package loomylin.lab.engine.output;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import loomylin.server.json.Json;

/**
 * Where a result came from: written as {@code provenance.json} beside every result file the bench writes, and as
 * the first section of its report, so that a number read later names the code, the machine, the software and the
 * command that made it. The JSON's fields are listed in docs/methodology/output.md ("Provenance"); {@code schema} counts
 * incompatible changes.
 *
 * @param date     when the bench started, ISO-8601 in UTC, to the second
 * @param command  the command line as typed (flags in their order)
 * @param commit   the code's commit and whether its tree was dirty
 * @param out      the output directory, relative to the checkout when inside it
 * @param host     the machine
 * @param jdk      the JVM running the bench, and therefore its servers (they run the same java)
 * @param jetty    Jetty's version, from its own {@code Jetty.VERSION}
 * @param javalin  Javalin's version, from its jar's Maven properties
 * @param tools    each load generator used, by name: its version as it reports it, and its path
 * @param cpuSets  each process kind the bench started ("server", "client", "backend") and the CPUs it was pinned
 *                 to with taskset, or "all" when it was not pinned
 * @param durationS how long the bench took, start to its last run, in seconds; -1 while it runs (or when it was
 *                 stopped before it could say)
 */
public record Provenance(String date, String command, Commit commit, String out, Host host, String jdk, String jetty, String javalin,
                         Map<String, String> tools, Map<String, String> cpuSets, long durationS) {
    public static final String FILE = "provenance.json";
    static final int SCHEMA = 1;
    /** A process kind that was not pinned. */
    public static final String ALL_CPUS = "all";

    /** This bench's provenance, read now: the clock, git, /proc, the class path. */
    public static Provenance collect(String command, Path out, Map<String, String> tools, Map<String, String> cpuSets) {
        Commit commit = Commit.ofRunningCode();
        return new Provenance(OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString(), command, commit,
                commit.relative(out), Host.here(), runningJdk(), org.eclipse.jetty.util.Jetty.VERSION, javalinVersion(), Map.copyOf(tools), Map.copyOf(cpuSets), -1);
    }

    /** The same provenance, for a bench that took {@code seconds}, start to its last run. */
    public Provenance finishedAfter(long seconds) {
        return new Provenance(date, command, commit, out, host, jdk, jetty, javalin, tools, cpuSets, seconds);
    }

    /** The servers' JVM's name, version and vendor; where --java chose another than the bench's own, both. */
    static String runningJdk() {
        String bench = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ")";
        String servers = loomylin.lab.engine.run.ServerJava.current().described();
        return servers.equals(bench) ? bench : servers + "; the bench itself: " + bench;
    }

    /** Javalin's version from the Maven properties its jar carries (the shaded jar keeps them), or "unknown". */
    static String javalinVersion() {
        try (InputStream in = io.javalin.Javalin.class.getResourceAsStream("/META-INF/maven/io.javalin/javalin/pom.properties")) {
            if (in == null) return "unknown";
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Writes DIR/provenance.json. */
    public void write(Path dir) throws IOException {
        write(dir, 1);
    }

    /** Written as the {@code invocation}th of results that add up ({@link Invocations#provenanceFile}). */
    public void write(Path dir, int invocation) throws IOException {
        Files.writeString(dir.resolve(Invocations.provenanceFile(invocation)), json() + "\n", StandardCharsets.UTF_8);
    }

    /** The document of provenance.json (field order fixed, one object; see docs/methodology/output.md). */
    public String json() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("date", date);
        doc.put("command", command);
        doc.put("commit", commit.hash());
        doc.put("dirty", commit.dirty());
        doc.put("out", out);
        if (durationS >= 0) doc.put("duration_s", durationS);
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cpu", host.cpu());
        machine.put("cores", host.cores());
        machine.put("memory_kb", host.memoryKb());
        machine.put("os", host.os());
        machine.put("kernel", host.kernel());
        machine.put("virtualised", host.virtualised());
        machine.put("virtualisation", host.virtualisation());
        doc.put("machine", machine);
        doc.put("jdk", jdk);
        doc.put("jetty", jetty);
        doc.put("javalin", javalin);
        doc.put("tools", new java.util.TreeMap<>(tools));
        doc.put("cpu_sets", new java.util.TreeMap<>(cpuSets));
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc);
    }

    /**
     * DIR/provenance.json read back as {@link #json()} wrote it, for a report written again from a bench's results
     * ({@code bench --rerender}): what {@code read(dir)} gives after {@code write(dir)} equals what was written, but for
     * the checkout's root, which the file does not hold. A file written before {@code duration_s} or {@code cpu_sets}
     * were recorded reads as a bench that did not say how long it took (-1) and pinned nothing it said (none).
     *
     * @throws IllegalArgumentException in one line when the file is not such a document (the caller says whose it is)
     * @throws IOException              when it cannot be read (a missing file among them)
     */
    public static Provenance read(Path dir) throws IOException {
        String text = Files.readString(dir.resolve(FILE), StandardCharsets.UTF_8);
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (RuntimeException e) { // Jackson's parse error: the file is not JSON
            throw new IllegalArgumentException("not JSON (" + firstLine(e.getMessage()) + ")");
        }
        if (!(parsed instanceof Map<?, ?> doc)) throw new IllegalArgumentException("not a JSON object");
        Object schema = doc.get("schema");
        if (!(schema instanceof Number n) || n.intValue() != SCHEMA)
            throw new IllegalArgumentException("schema " + schema + ", where this bench reads schema " + SCHEMA);
        Map<?, ?> machine = object(doc, "machine");
        Host host = new Host(text(machine, "cpu"), (int) number(machine, "cores"), number(machine, "memory_kb"), text(machine, "os"),
                text(machine, "kernel"), machine.get("virtualised") instanceof Boolean b ? b : null, text(machine, "virtualisation"));
        Commit commit = new Commit(text(doc, "commit"), Boolean.TRUE.equals(doc.get("dirty")), java.util.Optional.empty());
        return new Provenance(text(doc, "date"), text(doc, "command"), commit, text(doc, "out"), host, text(doc, "jdk"), text(doc, "jetty"),
                text(doc, "javalin"), strings(doc, "tools"), doc.containsKey("cpu_sets") ? strings(doc, "cpu_sets") : Map.of(),
                doc.get("duration_s") == null ? -1 : number(doc, "duration_s"));
    }

    private static String text(Map<?, ?> doc, String field) {
        if (!(doc.get(field) instanceof String s)) throw new IllegalArgumentException("no text field \"" + field + "\"");
        return s;
    }

    private static long number(Map<?, ?> doc, String field) {
        if (!(doc.get(field) instanceof Number n)) throw new IllegalArgumentException("no number field \"" + field + "\"");
        return n.longValue();
    }

    private static Map<?, ?> object(Map<?, ?> doc, String field) {
        if (!(doc.get(field) instanceof Map<?, ?> m)) throw new IllegalArgumentException("no object field \"" + field + "\"");
        return m;
    }

    /** An object of text values, e.g. tools by name. */
    private static Map<String, String> strings(Map<?, ?> doc, String field) {
        Map<String, String> out = new java.util.TreeMap<>();
        object(doc, field).forEach((k, v) -> {
            if (!(v instanceof String s)) throw new IllegalArgumentException("\"" + field + "\" holds a value that is not text: " + k);
            out.put(String.valueOf(k), s);
        });
        return Map.copyOf(out);
    }

    private static String firstLine(String message) {
        return message == null ? "unreadable" : message.lines().findFirst().orElse("unreadable");
    }

    /** The report's first section: a two-column table of the same facts. */
    public String markdown() {
        StringBuilder md = new StringBuilder("## Provenance\n\n| | |\n|---|---|\n");
        row(md, "Commit", "`" + commit.hash() + "`" + (commit.dirty() ? " (dirty: tracked files differed from the commit)" : ""));
        row(md, "Date", date + (durationS >= 0 ? ", took " + (durationS + 59) / 60 + " min" : ""));
        row(md, "Command", "`" + command + "`");
        row(md, "Output", "`" + out + "`");
        row(md, "Machine", host.cores() + " cores" + (host.cpu().isEmpty() ? "" : ", " + host.cpu()) + ", " + host.memoryGib() + " GiB, "
                + (host.virtualised() == null ? "virtualisation unknown" : host.virtualised() ? "virtualised" : "not virtualised")
                + " (" + host.virtualisation() + ")");
        row(md, "OS", host.os() + ", kernel " + host.kernel());
        row(md, "JDK", jdk);
        row(md, "Jetty, Javalin", jetty + ", " + javalin);
        new java.util.TreeMap<>(tools).forEach((name, version) -> row(md, name, version));
        row(md, "CPU sets", cpuSets.isEmpty() ? "none started" : String.join(", ", new java.util.TreeMap<>(cpuSets).entrySet().stream()
                .map(e -> e.getKey() + " " + (e.getValue().equals(ALL_CPUS) ? "all CPUs (not pinned)" : "CPUs " + e.getValue())).toList()));
        return md.append('\n').toString();
    }

    private static void row(StringBuilder md, String name, String value) {
        md.append("| ").append(name).append(" | ").append(value.replace("|", "\\|").replace("\n", " ")).append(" |\n");
    }
}
