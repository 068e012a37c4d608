package loomylin;

import java.util.Arrays;

/**
 * Entry point of {@code java -jar loomylin.jar}: {@code backend ...} runs the backend alone, {@code bench ...}
 * the benchmark, anything else starts the servers of the twin that {@code --twin} (or LOOMYLIN_TWIN) names:
 * {@link loomylin.java.Loomylin} or {@link loomylin.kotlin.Loomylin}.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        guard(() -> {
            String command = args.length > 0 ? args[0] : "";
            String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
            switch (command) {
                case "backend" -> Backend.main(rest);
                case "bench" -> loomylin.bench.Bench.main(rest);
                default -> {
                    String twin = twin(args);
                    if (twin.equals("kotlin")) loomylin.kotlin.Loomylin.main(args);
                    else loomylin.java.Loomylin.main(args);
                }
            }
        });
    }

    /** Runs a main: user mistakes become one line and an exit status (2 usage, 1 start-up), not a stack trace. */
    public static void guard(Runnable main) {
        try {
            main.run();
        } catch (UsageError e) {
            exit(2, e.getMessage() + " (see --help)");
        } catch (StartupFailure e) {
            exit(1, e.getMessage());
        }
    }

    public static void exit(int status, String line) {
        System.err.println("loomylin: " + line);
        System.exit(status);
    }

    static String twin(String[] args) {
        String twin = System.getenv().getOrDefault(Flags.envName("twin"), "java");
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--twin") && i + 1 < args.length) twin = args[i + 1];
            else if (args[i].startsWith("--twin=")) twin = args[i].substring(7);
        }
        twin = twin.trim();
        if (!twin.equals("java") && !twin.equals("kotlin"))
            throw new UsageError("--twin must be java or kotlin, got '" + Params.printable(twin) + "'");
        return twin;
    }
}
