package loomylin.server.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import loomylin.testing.ChildJvm;

/**
 * "their-app.jar" for {@link AgentTest} and {@code AppAdviseTest}: the test applications' own classes (and none of Loomylin's), a main class,
 * and a manifest {@code Class-Path} naming their libraries' jars from the local Maven repository, as a user's
 * application is packaged; {@code java -javaagent:... -jar} runs it.
 */
public final class TheirJar {
    /** The classes of the test applications, with their nested classes. */
    static final List<Class<?>> APP_CLASSES = List.of(EmbeddedJettyApp.class, JavalinApp.class, PlainApp.class, SlowService.class, AppWork.class);
    /** Embedded Jetty's jars: Jetty's modules and the logging API Jetty needs. */
    public static final List<String> JETTY = List.of("/org/eclipse/jetty/", "/org/slf4j/slf4j-api/");
    /** Javalin 7's: Jetty's, the servlet API, Javalin and the Kotlin library it is written against. */
    static final List<String> JAVALIN = List.of("/org/eclipse/jetty/", "/org/slf4j/slf4j-api/", "/jakarta/servlet/", "/io/javalin/javalin/",
            "/org/jetbrains/kotlin/kotlin-stdlib/");

    private TheirJar() {
    }

    /** The jars of the test class path whose path holds one of {@code libraries}. */
    public static List<Path> libraries(List<String> libraries) {
        return Arrays.stream(ChildJvm.classPath().split(File.pathSeparator)).filter(e -> e.endsWith(".jar"))
                .filter(e -> libraries.stream().anyMatch(e::contains)).map(Path::of).toList();
    }

    /** Writes the application jar: {@code main} runs, {@code classPath} follows it. */
    public static Path write(Path jar, Class<?> main, List<Path> classPath) throws IOException {
        return write(jar, main, classPath, APP_CLASSES);
    }

    /** Writes a jar of {@code classes} (with their nested classes): {@code main} runs, {@code classPath} follows it. */
    static Path write(Path jar, Class<?> main, List<Path> classPath, List<Class<?>> classes) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, main.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH,
                String.join(" ", classPath.stream().map(p -> p.toAbsolutePath().toUri().getRawPath()).toList()));
        Path compiled = Path.of("target", "test-classes");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Class<?> c : classes) {
                Path dir = compiled.resolve(c.getPackageName().replace('.', '/'));
                List<Path> files;
                try (Stream<Path> all = Files.list(dir)) {
                    String name = c.getSimpleName();
                    files = all.filter(f -> f.getFileName().toString().equals(name + ".class") || f.getFileName().toString().startsWith(name + "$")).sorted().toList();
                }
                for (Path f : files) {
                    out.putNextEntry(new JarEntry(compiled.relativize(f).toString().replace(File.separatorChar, '/')));
                    out.write(Files.readAllBytes(f));
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    /**
     * A copy of {@code jettyUtil} whose manifest says another version: Jetty reads its version ({@code Jetty.VERSION},
     * {@code Server.getVersion()}) from the {@code Implementation-Version} of jetty-util's package, so an application
     * running on the copy looks, to the agent, like one on that Jetty.
     */
    static Path relabelled(Path jettyUtil, String version, Path copy) throws IOException {
        try (InputStream file = Files.newInputStream(jettyUtil); JarInputStream in = new JarInputStream(file)) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().putValue("Implementation-Version", version);
            manifest.getMainAttributes().putValue("Bundle-Version", version);
            try (OutputStream target = Files.newOutputStream(copy); JarOutputStream out = new JarOutputStream(target, manifest)) {
                for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                    out.putNextEntry(new JarEntry(e.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return copy;
    }

    /** {@code libraries} with jetty-util replaced by {@code replacement}. */
    static List<Path> replacingJettyUtil(List<Path> libraries, Path replacement) {
        List<Path> out = new ArrayList<>();
        for (Path p : libraries) out.add(p.getFileName().toString().startsWith("jetty-util-") ? replacement : p);
        return out;
    }
}
