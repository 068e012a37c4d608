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
            Map.entry("loomylin.web", 0),
            Map.entry("loomylin.json", 0),
            Map.entry("loomylin.proc", 0),
            Map.entry("loomylin.jfr", 0),
            Map.entry("loomylin.jetty.internal", 1),
            Map.entry("loomylin.jetty", 2),
            Map.entry("loomylin.backend", 3),
            Map.entry("loomylin.admin", 3),
            Map.entry("loomylin.cli", 1),
            Map.entry("loomylin.db", 1),
            Map.entry("loomylin.launch", 4),
            Map.entry("loomylin.java", 5),
            Map.entry("loomylin.kotlin", 5),
            Map.entry("loomylin.clients", 5),
            Map.entry("loomylin.bench.process", 6),
            Map.entry("loomylin.bench.measure", 6),
            Map.entry("loomylin.bench.load", 7),
            Map.entry("loomylin.bench.run", 8),
            Map.entry("loomylin.bench.output", 9),
            Map.entry("loomylin.bench.connections", 10),
            Map.entry("loomylin.bench.fibers", 10),
            Map.entry("loomylin.bench.crossover", 11),
            Map.entry("loomylin.bench.bound", 11),
            Map.entry("loomylin.bench", 12),
            Map.entry("loomylin.advise", 12),
            Map.entry("loomylin.bare", 6),
            Map.entry("loomylin.report", 6),
            Map.entry("loomylin.reliability", 13),
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
