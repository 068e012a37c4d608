package loomylin.lab.engine.run;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import loomylin.server.cli.UsageError;
import loomylin.server.proc.ProcLimits;

/**
 * Checks that every run's concurrency fits in the open-file limit the children inherit: hey holds one socket
 * per client, a server one per client plus, for /hops-*, one per backend connection (up to one per client).
 */
public final class DescriptorCheck {
    private DescriptorCheck() {
    }

    /** Sockets a process needs besides the per-client ones: jars, logs, epoll, pipes. */
    private static final int SPARE = 200;

    public static void check(List<RunSpec> runs, Path limits) {
        RunSpec biggest = runs.stream().max(java.util.Comparator.comparingLong(DescriptorCheck::sockets)).orElse(null);
        if (biggest == null) return;
        int most = biggest.concurrency();
        long needed = sockets(biggest) + SPARE;
        OptionalLong limit = ProcLimits.openFiles(limits);
        if (limit.isPresent() && limit.getAsLong() < needed)
            throw new UsageError("concurrency " + most + " needs about " + needed + " open files per process, but the limit is "
                    + limit.getAsLong() + "; raise it (ulimit -n " + needed + ") or lower --concurrency");
    }

    /** Sockets the server of a run holds at most. */
    private static long sockets(RunSpec run) {
        return (run.endpoint().usesBackend() ? 2L : 1L) * run.concurrency();
    }

}
