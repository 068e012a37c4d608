package loomylin.server.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import loomylin.server.jetty.PoolKind;

/**
 * The agent's arguments, {@code -javaagent:loomylin.jar=pool=KIND[,admin=PORT][,admin-host=ADDRESS]}, read once.
 *
 * @param pool      the pool every Jetty server of the application runs on
 * @param adminPort the agent's admin port ({@code /metrics}, {@code /pool}); 0 = a free one; -1 = none
 * @param adminHost where the admin port binds: loopback unless asked, since the application did not ask for a port
 */
public record AgentOptions(PoolKind pool, int adminPort, String adminHost) {
    public static final String USAGE = "-javaagent:loomylin.jar=pool=KIND[,admin=PORT][,admin-host=ADDRESS], KIND one of " + PoolKind.HELP;

    /** Reads the agent's argument string; a mistake is an {@link IllegalArgumentException} of one line. */
    public static AgentOptions parse(String args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (String part : (args == null ? "" : args).split(",")) {
            if (part.isBlank()) continue;
            int eq = part.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("'" + part.strip() + "' is not NAME=VALUE; expected " + USAGE);
            String name = part.substring(0, eq).strip();
            if (!name.equals("pool") && !name.equals("admin") && !name.equals("admin-host"))
                throw new IllegalArgumentException("unknown argument '" + name + "'; expected " + USAGE);
            if (given.put(name, part.substring(eq + 1).strip()) != null) throw new IllegalArgumentException("'" + name + "' given twice");
        }
        if (!given.containsKey("pool")) throw new IllegalArgumentException("no pool given; expected " + USAGE);
        PoolKind pool = PoolKind.parse(given.get("pool"));
        int admin = -1;
        if (given.containsKey("admin")) {
            String port = given.get("admin");
            try {
                admin = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                admin = -2;
            }
            if (admin < 0 || admin > 65_535) throw new IllegalArgumentException("admin port '" + port + "' must be from 0 (a free port) to 65535");
        }
        String host = given.getOrDefault("admin-host", "127.0.0.1");
        if (host.isEmpty()) throw new IllegalArgumentException("admin-host is empty");
        if (given.containsKey("admin-host") && admin < 0) throw new IllegalArgumentException("admin-host without admin=PORT");
        return new AgentOptions(pool, admin, host);
    }
}
