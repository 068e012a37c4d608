package loomylin.admin;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.Server;

/** Everything the admin port needs to start, as a plain object. */
public final class AdminOptions {
    /** Where to bind: where the servers bind ({@code --host}). */
    public String host = "0.0.0.0";
    /** 0 = a free port. */
    public int port = 7004;
    /** How the race client reaches the servers: loopback when they bind every address. */
    public String reachHost = "localhost";
    /** The servers to report on, in port order. */
    public List<Watched> servers = new ArrayList<>();
    /** A request whose headers are not complete this long after their first byte gets 408 ({@code --header-timeout-ms}). */
    public int headerTimeoutMs = 5_000;
    /** A request body read slower than this many bytes per second fails ({@code --min-body-rate}); 0 = no minimum. */
    public int minBodyRate = 128;
    /** {@code --race-from}: who besides loopback may start a race; see {@link RaceAccess#parseFrom}. */
    public String raceFrom = "";
    /** {@code --admin-hosts}: Host names besides localhost and IP addresses this port answers /live and races to. */
    public String adminHosts = "";
    /** The in-process backend's Jetty server, whose threads are counted apart; null when there is none. */
    public Server backend;
}
