package loomylin.lab.clients;

import java.nio.file.Path;
import java.util.OptionalLong;
import loomylin.server.cli.UsageError;
import loomylin.server.proc.ProcLimits;

/**
 * The two kernel limits on how many connections one client holds, checked before any connection opens: the
 * process's open-file limit (one socket per connection) and the ephemeral port range (ports per source address).
 */
final class ConnectionLimits {
    /** Files the JVM itself holds open besides the sockets: jars, logs, epoll, pipes. */
    static final int SPARE_FILES = 200;

    private ConnectionLimits() {
    }

    static void check(int connections, int sourceAddresses, Path procSelfLimits, Path portRange) {
        OptionalLong files = ProcLimits.openFiles(procSelfLimits);
        if (files.isPresent() && connections + SPARE_FILES > files.getAsLong())
            throw new UsageError(connections + " connections need about " + (connections + SPARE_FILES) + " open files, but the limit is "
                    + files.getAsLong() + "; raise it (ulimit -n) or use at most " + Math.max(0, files.getAsLong() - SPARE_FILES) + " connections");
        long ports = ProcLimits.ephemeralPorts(portRange).orElse(0);
        int sources = Math.max(1, sourceAddresses);
        long perSource = (connections + sources - 1) / sources;
        if (ports > 0 && perSource > ports)
            throw new UsageError(connections + " connections over " + sources + " source address(es) need " + perSource
                    + " ports each, but the ephemeral port range has " + ports + "; add --source-addresses (e.g. 127.0.0.2-127.0.0.9)");
    }
}
