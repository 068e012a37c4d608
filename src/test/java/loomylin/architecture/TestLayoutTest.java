package loomylin.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The test tree mirrors the main tree, so that a class's tests are found beside it: every test source sits in
 * the directory of its package, and that package is one of the main sources' packages or one of the few
 * test-only packages below.
 */
class TestLayoutTest {
    /** Packages only the tests have, each for one reason. */
    static final Map<String, String> TEST_ONLY = Map.of(
            "loomylin.testing", "helpers shared by tests of several packages",
            "loomylin.architecture", "tests of the whole tree: layers, this layout, the jar",
            "loomylin.twins", "suites that run the Java and the Kotlin twin side by side");

    static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)", Pattern.MULTILINE);

    @Test
    void everyTestPackageIsAMainPackageOrTestOnly() throws IOException {
        Set<String> main = packages(List.of(Path.of("src/main/java"), Path.of("src/main/kotlin"))).keySet();
        Map<String, List<Path>> tests = packages(List.of(Path.of("src/test/java"), Path.of("src/test/kotlin")));
        assertFalse(main.isEmpty() || tests.isEmpty(), "run from the project's directory: no sources found");
        Map<String, List<Path>> strays = new TreeMap<>(tests);
        strays.keySet().removeAll(main);
        strays.keySet().removeAll(TEST_ONLY.keySet());
        assertEquals(Map.of(), strays, "test packages with no main package of that name (move the tests beside the code they test, or add a test-only package to TEST_ONLY with its reason)");
    }

    @Test
    void everyTestSourceSitsInItsPackagesDirectory() throws IOException {
        Set<Path> misplaced = new TreeSet<>();
        for (Path root : List.of(Path.of("src/test/java"), Path.of("src/test/kotlin"))) {
            for (Path file : sources(root)) {
                String pkg = packageOf(file);
                if (!root.resolve(pkg.replace('.', '/')).equals(file.getParent())) misplaced.add(file);
            }
        }
        assertEquals(Set.of(), misplaced, "test sources outside their package's directory");
    }

    /** Each package declared in the sources under {@code roots}, with the files that declare it. */
    private static Map<String, List<Path>> packages(List<Path> roots) throws IOException {
        Map<String, List<Path>> packages = new TreeMap<>();
        for (Path root : roots) {
            for (Path file : sources(root)) packages.computeIfAbsent(packageOf(file), k -> new ArrayList<>()).add(file);
        }
        return packages;
    }

    private static List<Path> sources(Path root) throws IOException {
        if (!Files.isDirectory(root)) return List.of();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java") || f.toString().endsWith(".kt")).sorted().toList();
        }
    }

    private static String packageOf(Path file) throws IOException {
        Matcher m = PACKAGE.matcher(Files.readString(file));
        return m.find() ? m.group(1) : "";
    }
}
