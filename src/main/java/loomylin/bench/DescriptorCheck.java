package loomylin.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import loomylin.cli.UsageError;

/**
 * Checks that the highest concurrency fits in the open-file limit the children inherit: hey holds one socket
 * per client, a server one per client plus one per backend connection of /hops-* (up to one per client).
 */
final class DescriptorCheck {
    private DescriptorCheck() {
    }

    /** Sockets a process needs besides the per-client ones: jars, logs, epoll, pipes. */
    private static final int SPARE = 200;

    static void check(List<RunSpec> runs, Path limits) {
        int most = runs.stream().mapToInt(RunSpec::concurrency).max().orElse(0);
        long needed = 2L * most + SPARE;
        OptionalLong limit = softLimit(limits);
        if (limit.isPresent() && limit.getAsLong() < needed)
            throw new UsageError("concurrency " + most + " needs about " + needed + " open files per process, but the limit is "
                    + limit.getAsLong() + "; raise it (ulimit -n " + needed + ") or lower --concurrency");
    }

    /** The soft "Max open files" of /proc/self/limits (the JVM raises it to the hard limit, and children inherit that). */
    static OptionalLong softLimit(Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (!line.startsWith("Max open files")) continue;
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return soft.matches("\\d+") ? OptionalLong.of(Long.parseLong(soft)) : OptionalLong.empty(); // "unlimited"
            }
        } catch (IOException e) {
            // not Linux, or no /proc: hey will say so itself if it runs out
        }
        return OptionalLong.empty();
    }
}
