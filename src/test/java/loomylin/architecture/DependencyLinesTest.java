package loomylin.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every dependency earns a line: each artifact pom.xml's project depends on is named in docs/architecture.md's "## Dependencies". */
class DependencyLinesTest {
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>");

    /** The project's own dependencies: the {@code <dependencies>} after {@code </dependencyManagement>}, exclusions left out. */
    static List<String> dependencies(String pom) {
        int managed = pom.indexOf("</dependencyManagement>");
        int start = pom.indexOf("<dependencies>", managed < 0 ? 0 : managed);
        String block = pom.substring(start, pom.indexOf("</dependencies>", start)).replaceAll("(?s)<exclusions>.*?</exclusions>", "");
        List<String> found = new ArrayList<>();
        Matcher m = DEPENDENCY.matcher(block);
        while (m.find()) found.add(m.group(1).trim() + ":" + m.group(2).trim());
        return found;
    }

    /** Named by its artifact id, spelled as it is or with spaces for hyphens, in any case. */
    static boolean named(String section, String coordinates) {
        String artifact = coordinates.substring(coordinates.indexOf(':') + 1).toLowerCase(Locale.ROOT);
        String text = section.toLowerCase(Locale.ROOT);
        return text.contains(artifact) || text.contains(artifact.replace('-', ' '));
    }

    @Test
    void everyDependencyHasALineInArchitectureMd() throws Exception {
        List<String> deps = dependencies(Files.readString(Path.of("pom.xml")));
        assertTrue(deps.size() >= 10, "pom.xml's dependencies not understood: " + deps);
        String doc = Files.readString(Path.of("docs/architecture.md"));
        int at = doc.indexOf("\n## Dependencies");
        assertTrue(at >= 0, "docs/architecture.md has no ## Dependencies");
        int end = doc.indexOf("\n## ", at + 1);
        String section = end < 0 ? doc.substring(at) : doc.substring(at, end);
        List<String> missing = deps.stream().filter(d -> !named(section, d)).toList();
        assertTrue(missing.isEmpty(), "dependencies without a line in docs/architecture.md's ## Dependencies (say why each is there): " + missing);
    }

    @Test
    void aDependencyTheSectionDoesNotNameIsCaught() {
        assertFalse(named("| Javalin 7.2.3 | the servers |", "org.example:left-pad"));
        assertTrue(named("| JUnit Platform launcher | listener |", "org.junit.platform:junit-platform-launcher"));
    }
}
