package loomylin.server.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A picocli option's whole-number range, written on the field beside its {@code @Option}: {@link CommandLines}
 * refuses a value outside it, or one that is not a whole number, with one line naming the flag (or its variable)
 * and the range, as {@code --port must be a whole number from 0 to 65535, got '99999'}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Whole {
    int min();

    int max();
}
