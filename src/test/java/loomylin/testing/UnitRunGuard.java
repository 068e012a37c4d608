package loomylin.testing;

/**
 * Keeps child JVMs and external tools out of the fast loop: surefire's unit run ({@code ./mvnw test}) sets
 * {@code loomylin.test.run=unit}, and there {@link #refuse(String)} fails the calling test, which must be tagged
 * {@link IntegrationTest}. Failsafe and IDE runs do not set it, so they run everything.
 */
final class UnitRunGuard {
    private UnitRunGuard() {
    }

    static boolean unitRun() {
        return "unit".equals(System.getProperty("loomylin.test.run"));
    }

    /** Fails with one line naming {@code what} when this is the unit run. */
    static void refuse(String what) {
        if (unitRun()) {
            throw new AssertionError(what + " in the unit run (./mvnw test): tag the test @IntegrationTest"
                    + " (loomylin.testing) so that ./mvnw verify runs it");
        }
    }
}
