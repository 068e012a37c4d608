package loomylin.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import loomylin.testing.IntegrationTest;
import org.junit.jupiter.api.Test;

/** target/loomylin.jar, as `package` shades it: the application and its libraries, none of the test tooling. */
@IntegrationTest
class ProductionJarTest {
    static final Path JAR = Path.of("target", "loomylin.jar");
    /** Where the test tree and its test-scoped libraries would show up in the jar. */
    static final List<String> TEST_TOOLING = List.of("loomylin/testing/", "loomylin/architecture/", "org/junit/",
            "org/opentest4j/", "org/apiguardian/", "org/awaitility/", "org/hamcrest/", "org/openqa/",
            "META-INF/services/org.junit.");

    @Test
    void theJarHoldsNoTestTooling() throws IOException {
        assertTrue(Files.isRegularFile(JAR), "no " + JAR + ": it is made by ./mvnw package, before the integration tests");
        Set<String> found = new TreeSet<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            jar.stream().map(e -> e.getName()).forEach(name -> {
                for (String prefix : TEST_TOOLING) if (name.startsWith(prefix)) found.add(prefix);
                if (name.startsWith("loomylin/") && name.endsWith("Test.class")) found.add(name);
            });
            assertTrue(jar.getEntry("loomylin/Main.class") != null, "the jar holds the application");
        }
        assertEquals(Set.of(), found, "test tooling in the production jar");
    }
}
