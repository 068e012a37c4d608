package loomylin.server.launch;

import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;
import loomylin.server.web.Params;

/** {@code --pool PORT=KIND} or {@code LOOMYLIN_POOL_<PORT>=KIND}: the pool of the server on one port. */
record PoolOverride(int port, PoolKind kind) {
    /** {@code 7002=jetty-vtp}; anything else is a usage error. */
    static PoolOverride parse(String text) {
        int eq = text.indexOf('=');
        if (eq < 1 || !text.substring(0, eq).matches("\\d{1,5}"))
            throw new UsageError("--pool takes PORT=KIND, e.g. --pool 7002=jetty-vtp; got '" + Params.printable(text) + "'");
        return new PoolOverride(Integer.parseInt(text.substring(0, eq)), UsageError.parsing(PoolKind::parse, text.substring(eq + 1)));
    }
}
