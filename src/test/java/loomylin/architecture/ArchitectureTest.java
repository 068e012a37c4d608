package loomylin.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages show the architecture: jdeps, run on the compiled main classes, finds no cycle between
 * Loomylin's packages, and every dependency points down the layers below (docs/architecture.md's layer table).
 */
class ArchitectureTest {
    /** Each package's layer: a package may depend only on packages of a lower layer. */
    static final Map<String, Integer> LAYERS = Map.ofEntries(
            Map.entry("loomylin.server.web", 0),
            Map.entry("loomylin.server.json", 0),
            Map.entry("loomylin.server.proc", 0),
            Map.entry("loomylin.server.jfr", 0),
            Map.entry("loomylin.server.jetty.internal", 1),
            Map.entry("loomylin.server.jetty", 2),
            Map.entry("loomylin.server.backend", 3),
            Map.entry("loomylin.server.admin", 3),
            Map.entry("loomylin.server.cli", 1),
            Map.entry("loomylin.server.db", 1),
            Map.entry("loomylin.server.launch", 4),
            Map.entry("loomylin.server.java", 5),
            Map.entry("loomylin.server.kotlin", 5),
            Map.entry("loomylin.server.agent", 6),
            Map.entry("loomylin.lab.clients", 5),
            Map.entry("loomylin.lab.engine.process", 6),
            Map.entry("loomylin.lab.engine.measure", 6),
            Map.entry("loomylin.lab.engine.result", 6),
            Map.entry("loomylin.lab.engine.load", 7),
            Map.entry("loomylin.lab.engine.run", 8),
            Map.entry("loomylin.lab.engine.output", 9),
            Map.entry("loomylin.lab.engine", 10),
            Map.entry("loomylin.lab.experiment.connections", 11),
            Map.entry("loomylin.lab.experiment.fibers", 11),
            Map.entry("loomylin.lab.experiment.crossover", 11),
            Map.entry("loomylin.lab.experiment.bound", 11),
            Map.entry("loomylin.lab.bench", 12),
            Map.entry("loomylin.lab.experiment.advise", 11),
            Map.entry("loomylin.lab.bare", 6),
            Map.entry("loomylin.lab.report", 6),
            Map.entry("loomylin.lab.reliability", 13),
            Map.entry("loomylin", 14));

    static Map<String, Set<String>> edges;

    @BeforeAll
    static void runJdeps() {
        Path classes = Path.of("target", "classes");
        assertTrue(Files.isDirectory(classes), "compile first: no " + classes.toAbsolutePath());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", "-e", "loomylin(\\..*)?", classes.toString());
        assertEquals(0, status, "jdeps failed: " + out);
        edges = new TreeMap<>();
        for (String line : out.toString().lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && f[1].equals("->") && f[0].startsWith("loomylin") && f[2].startsWith("loomylin") && !f[0].equals(f[2]))
                edges.computeIfAbsent(f[0], k -> new TreeSet<>()).add(f[2]);
        }
        assertTrue(edges.containsKey("loomylin"), "jdeps output not understood: " + out);
    }

    @Test
    void everyPackageHasALayer() {
        Set<String> packages = new TreeSet<>(edges.keySet());
        edges.values().forEach(packages::addAll);
        packages.removeAll(LAYERS.keySet());
        assertTrue(packages.isEmpty(), "packages without a layer in ArchitectureTest.LAYERS (and docs/architecture.md's layer table): " + packages);
    }

    /**
     * docs/architecture.md's layer table names every package of {@link #LAYERS} at its layer, and no other: the
     * page a contributor reads is the one this test enforces.
     */
    @Test
    void theArchitecturePageListsEveryPackageAtItsLayer() throws Exception {
        Map<String, Integer> documented = new TreeMap<>();
        java.util.regex.Pattern row = java.util.regex.Pattern.compile("^\\| (\\d+) \\| (.*?) \\|");
        for (String line : Files.readAllLines(Path.of("docs/architecture.md"))) {
            java.util.regex.Matcher m = row.matcher(line);
            if (!m.find()) continue;
            java.util.regex.Matcher name = java.util.regex.Pattern.compile("`(loomylin[\\w.]*)`").matcher(m.group(2));
            while (name.find()) documented.put(name.group(1), Integer.parseInt(m.group(1)));
        }
        assertEquals(new TreeMap<>(LAYERS), documented, "docs/architecture.md's layer table against ArchitectureTest.LAYERS");
    }

    @Test
    void dependenciesPointDown() {
        List<String> upward = new ArrayList<>();
        edges.forEach((from, tos) -> tos.forEach(to -> {
            if (LAYERS.getOrDefault(from, -1) <= LAYERS.getOrDefault(to, Integer.MAX_VALUE)) upward.add(from + " -> " + to);
        }));
        assertTrue(upward.isEmpty(), "dependencies that do not point to a lower layer: " + upward);
    }

    /** The servers are apart from the lab: a server package never uses a lab package (the lab uses the servers). */
    @Test
    void theServersNeverUseTheLab() {
        List<String> up = new ArrayList<>();
        edges.forEach((from, tos) -> tos.forEach(to -> {
            if (from.startsWith("loomylin.server") && to.startsWith("loomylin.lab")) up.add(from + " -> " + to);
        }));
        assertTrue(up.isEmpty(), "server packages that use the lab: " + up);
        assertTrue(LAYERS.keySet().stream().allMatch(p -> p.equals("loomylin") || p.startsWith("loomylin.server") || p.startsWith("loomylin.lab")),
                "every package is the servers' or the lab's: " + LAYERS.keySet());
    }

    /** An experiment uses the engine and the servers, never another experiment: what two share belongs in the engine. */
    @Test
    void experimentsUseTheEngineNotEachOther() {
        List<String> sideways = new ArrayList<>();
        edges.forEach((from, tos) -> tos.forEach(to -> {
            if (experiment(from) != null && experiment(to) != null && !experiment(from).equals(experiment(to))) sideways.add(from + " -> " + to);
        }));
        assertTrue(sideways.isEmpty(), "experiments that use each other: " + sideways);
        assertTrue(edges.keySet().stream().filter(p -> p.startsWith("loomylin.lab.engine"))
                .allMatch(p -> edges.get(p).stream().noneMatch(to -> experiment(to) != null || to.equals("loomylin.lab.bench"))), "the engine uses no experiment");
    }

    /** {@code loomylin.lab.experiment.X}'s X, or null for a package outside the experiments. */
    private static String experiment(String pkg) {
        String prefix = "loomylin.lab.experiment.";
        return pkg.startsWith(prefix) ? pkg.substring(prefix.length()).split("\\.")[0] : null;
    }

    @Test
    void noPackageCycles() {
        List<String> cycles = new ArrayList<>();
        for (String start : edges.keySet()) {
            List<String> path = new ArrayList<>();
            path.add(start);
            findCycle(start, start, path, new TreeSet<>(), cycles);
        }
        assertTrue(cycles.isEmpty(), "package cycles: " + cycles);
    }

    private static void findCycle(String start, String at, List<String> path, Set<String> seen, List<String> cycles) {
        for (String next : edges.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                cycles.add(String.join(" -> ", path) + " -> " + start);
            } else if (seen.add(next)) {
                path.add(next);
                findCycle(start, next, path, seen, cycles);
                path.remove(path.size() - 1);
            }
        }
    }
}
