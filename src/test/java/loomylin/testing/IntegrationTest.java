package loomylin.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test, or a whole test class, outside the fast loop: it starts a child JVM ({@link ChildJvm}), an external
 * tool ({@link Tools}: hey, wrk, oha, ab, podman), a browser, reads the packaged jar, or runs longer than a
 * few seconds.
 * {@code ./mvnw test} (surefire) leaves it out; {@code ./mvnw verify} (failsafe) runs it after the unit tests,
 * and {@code ./mvnw verify -Dit.test=SomeTest -DskipUTs} runs one class alone. In the unit run, {@link ChildJvm}
 * and {@link Tools} fail a test that is not tagged, so no slow test slips into the fast loop unnoticed.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(IntegrationTest.TAG)
public @interface IntegrationTest {
    /** The JUnit tag the build's two runs select on (pom.xml: surefire excludes it, failsafe includes it). */
    String TAG = "integration";
}
