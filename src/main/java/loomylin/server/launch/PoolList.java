package loomylin.server.launch;

import java.util.ArrayList;
import java.util.List;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;

/**
 * {@code --pools}: one pool per server, in port order. One value, not a picocli list, so that a second
 * {@code --pools} replaces the first as every other flag does.
 */
record PoolList(List<PoolKind> kinds) {
    PoolList {
        kinds = List.copyOf(kinds);
    }

    /** {@code qtp:4,qtp:32,loom}: blank items dropped, each read by {@link PoolKind#parse}; listing none is a usage error. */
    static PoolList parse(String text) {
        List<PoolKind> kinds = new ArrayList<>();
        for (String spec : text.split(",")) {
            if (!spec.isBlank()) kinds.add(UsageError.parsing(PoolKind::parse, spec));
        }
        if (kinds.isEmpty()) throw new UsageError("--pools lists no pool");
        return new PoolList(kinds);
    }
}
