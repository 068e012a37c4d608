package loomylin.server.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.server.Server;

/**
 * Everything the admin port needs to start, as an immutable plain object; {@link #DEFAULTS} and its
 * {@code with...} copies.
 *
 * @param host            where to bind: where the servers bind ({@code --host})
 * @param port            the admin port; 0 = a free port
 * @param reachHost       how the race client reaches the servers: loopback when they bind every address
 * @param servers         the servers to report on, in port order
 * @param headerTimeoutMs a request whose headers are not complete this long after their first byte gets 408
 *                        ({@code --header-timeout-ms})
 * @param minBodyRate     a request body read slower than this many bytes per second fails ({@code --min-body-rate});
 *                        0 = no minimum
 * @param raceFrom        {@code --race-from}: who besides loopback may start a race; see {@link RaceAccess#parseFrom}
 * @param adminHosts      {@code --admin-hosts}: Host names besides localhost and IP addresses this port answers
 *                        /live and races to
 * @param backend         the in-process backend's Jetty server, whose threads are counted apart; null when there is none
 */
public record AdminOptions(String host, int port, String reachHost, List<Watched> servers, int headerTimeoutMs, int minBodyRate,
                           String raceFrom, String adminHosts, Server backend) {
    public static final AdminOptions DEFAULTS = new AdminOptions("0.0.0.0", 7004, "localhost", List.of(), 5_000, 128, "", "", null);

    public AdminOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(reachHost, "reachHost");
        servers = List.copyOf(servers);
        raceFrom = Objects.requireNonNullElse(raceFrom, "");
        adminHosts = Objects.requireNonNullElse(adminHosts, "");
    }

    /** On loopback, a free port, racing over loopback: what a test or a local tool wants. */
    public static AdminOptions loopback() {
        return DEFAULTS.withHost("127.0.0.1").withPort(0).withReachHost("127.0.0.1");
    }

    public AdminOptions withHost(String host) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    public AdminOptions withPort(int port) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    public AdminOptions withReachHost(String reachHost) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    /** These servers, reported on after the ones already here. */
    public AdminOptions withServers(List<Watched> more) {
        List<Watched> all = new ArrayList<>(servers);
        all.addAll(more);
        return new AdminOptions(host, port, reachHost, all, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    public AdminOptions withServer(Watched server) {
        return withServers(List.of(server));
    }

    public AdminOptions withHeaderTimeoutMs(int headerTimeoutMs) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    public AdminOptions withMinBodyRate(int minBodyRate) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    public AdminOptions withRaceFrom(String raceFrom) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    public AdminOptions withAdminHosts(String adminHosts) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }

    public AdminOptions withBackend(Server backend) {
        return new AdminOptions(host, port, reachHost, servers, headerTimeoutMs, minBodyRate, raceFrom, adminHosts, backend);
    }
}
