package loomylin.server.admin;

import io.javalin.http.Context;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import loomylin.server.proc.DefaultGateway;
import loomylin.server.web.ErrorAnswers;
import loomylin.server.web.Params;

/**
 * Who may start or stop a race, and who may read the live figures. A race makes this process load itself, so
 * it starts only when all three hold:
 * <ol>
 *   <li>the client's address is loopback or in {@code --race-from} (addresses, CIDR ranges, or {@code gateway}:
 *       the default gateway, where a container engine's published port delivers the host's connections);</li>
 *   <li>the {@code Host} header names this admin port the way a user reaches it: {@code localhost}, an IP
 *       address, or a name in {@code --admin-hosts} (a page on another site that re-points its own name at
 *       this address, DNS rebinding, sends its own name);</li>
 *   <li>the request comes from Loomylin's own page: its {@code Origin} is {@code http://} plus that Host, or,
 *       without an Origin, {@code Sec-Fetch-Site} is {@code same-origin}. A form or script on another site
 *       sends its own origin, so it cannot start a race from a user's browser; a client that sends neither
 *       header (curl) must send the page's Origin itself.</li>
 * </ol>
 * Anything else is a one-line 403. {@code GET /live} and {@code GET /race} check the Host only.
 */
final class RaceAccess {
    /** An address and how many of its leading bits must match. */
    record Range(InetAddress address, int prefix) {
        boolean contains(InetAddress a) {
            byte[] want = address.getAddress();
            byte[] have = a.getAddress();
            if (want.length != have.length) return false;
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >> (bit % 8);
                if ((want[bit / 8] & mask) != (have[bit / 8] & mask)) return false;
            }
            return true;
        }

        @Override
        public String toString() {
            return address.getHostAddress() + "/" + prefix;
        }
    }

    private final List<Range> from;
    private final List<String> hosts;

    RaceAccess(List<Range> from, List<String> hosts) {
        this.from = List.copyOf(from);
        this.hosts = hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    }

    /** Loopback only, and Host localhost or an IP address. */
    static RaceAccess loopbackOnly() {
        return new RaceAccess(List.of(), List.of());
    }

    /**
     * {@code --race-from}: a comma-separated list of IP addresses, CIDR ranges ({@code 10.0.0.0/8}) and the word
     * {@code gateway}; empty: loopback only. A mistake is an {@link IllegalArgumentException} with one line.
     */
    static List<Range> parseFrom(String text) {
        List<Range> ranges = new ArrayList<>();
        for (String item : text.split(",")) {
            String s = item.trim();
            if (s.isEmpty()) continue;
            if (s.equalsIgnoreCase("gateway")) {
                // none (a container without a network): nothing more to allow
                DefaultGateway.read(DefaultGateway.ROUTES).ifPresent(gateway -> ranges.add(new Range(gateway, 32)));
                continue;
            }
            int slash = s.indexOf('/');
            InetAddress address = literal(slash < 0 ? s : s.substring(0, slash)).orElseThrow(() -> new IllegalArgumentException(
                    "--race-from takes IP addresses, CIDR ranges (10.0.0.0/8) or gateway, separated by commas; got '" + Params.printable(s) + "'"));
            int bits = address.getAddress().length * 8;
            int prefix = bits;
            if (slash >= 0) {
                String p = s.substring(slash + 1);
                prefix = p.matches("\\d{1,3}") ? Integer.parseInt(p) : -1;
                if (prefix < 0 || prefix > bits)
                    throw new IllegalArgumentException("--race-from " + Params.printable(s) + ": the prefix must be a whole number from 0 to " + bits);
            }
            ranges.add(new Range(address, prefix));
        }
        return ranges;
    }

    /** {@code --admin-hosts}: a comma-separated list of host names besides localhost and IP addresses. */
    static List<String> parseHosts(String text) {
        List<String> names = new ArrayList<>();
        for (String item : text.split(",")) {
            String s = item.trim();
            if (s.isEmpty()) continue;
            if (!s.matches("[A-Za-z0-9]([A-Za-z0-9.-]{0,252})"))
                throw new IllegalArgumentException("--admin-hosts takes host names such as loomylin.example, separated by commas; got '" + Params.printable(s) + "'");
            names.add(s);
        }
        return names;
    }

    /** For POST /race and /race/stop: true if it may go on, else it has answered 403. */
    boolean mayRace(Context ctx) {
        String address = ctx.req().getRemoteAddr();
        if (!fromAllowedAddress(address)) {
            ErrorAnswers.answer(ctx, 403, "races start only from this machine (loopback) or an address --race-from allows, not from " + address);
            return false;
        }
        if (!mayRead(ctx)) return false;
        String host = ctx.header("Host");
        String origin = ctx.header("Origin");
        if (origin != null) {
            if (origin.equalsIgnoreCase("http://" + host)) return true;
            ErrorAnswers.answer(ctx, 403, "races start only from Loomylin's own page (Origin http://" + Params.printable(host)
                    + "), not from Origin '" + Params.printable(origin) + "'");
            return false;
        }
        String site = ctx.header("Sec-Fetch-Site");
        if ("same-origin".equalsIgnoreCase(site)) return true;
        ErrorAnswers.answer(ctx, 403, site != null
                ? "races start only from Loomylin's own page, not from a request with Sec-Fetch-Site '" + Params.printable(site) + "'"
                : "races start only from Loomylin's own page: the request has no Origin (from a script: -H 'Origin: http://" + Params.printable(host) + "')");
        return false;
    }

    /** For the live figures: true if the Host is one this admin port answers to, else it has answered 403. */
    boolean mayRead(Context ctx) {
        String host = ctx.header("Host");
        if (host != null && knownHost(host)) return true;
        ErrorAnswers.answer(ctx, 403, "Host '" + Params.printable(String.valueOf(host))
                + "' is not one this admin port answers to: use localhost or an IP address, or name it in --admin-hosts");
        return false;
    }

    private boolean fromAllowedAddress(String address) {
        Optional<InetAddress> a = literal(address);
        return a.isPresent() && (a.get().isLoopbackAddress() || from.stream().anyMatch(r -> r.contains(a.get())));
    }

    private boolean knownHost(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[")) {
            int end = name.indexOf(']');
            return end > 0 && (end == name.length() - 1 || name.substring(end + 1).matches(":\\d{1,5}"))
                    && literal(name.substring(1, end)).isPresent();
        }
        int colon = name.indexOf(':');
        if (colon >= 0) {
            if (!name.substring(colon + 1).matches("\\d{1,5}")) return false;
            name = name.substring(0, colon);
        }
        return name.equals("localhost") || literal(name).isPresent() || hosts.contains(name);
    }

    /** An IP address written as one (never a name lookup): IPv4 dotted quad or IPv6 with colons. */
    private static Optional<InetAddress> literal(String text) {
        String t = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        try {
            if (t.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
                byte[] b = new byte[4];
                String[] octets = t.split("\\.");
                for (int i = 0; i < 4; i++) {
                    int v = Integer.parseInt(octets[i]);
                    if (v > 255) return Optional.empty();
                    b[i] = (byte) v;
                }
                return Optional.of(InetAddress.getByAddress(b));
            }
            // with a colon the JDK reads an IPv6 literal and never looks a name up
            if (t.contains(":") && t.matches("[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?")) return Optional.of(InetAddress.getByName(t));
        } catch (UnknownHostException e) {
            // not an address
        }
        return Optional.empty();
    }
}
