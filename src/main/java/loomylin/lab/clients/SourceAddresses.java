package loomylin.lab.clients;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * The local addresses connections are bound to, in turn: {@code 127.0.0.2-127.0.0.9} (an IPv4 range),
 * {@code 127.0.0.2,127.0.0.3} or a mix. The kernel hands out its ephemeral ports per source address, so several
 * addresses let one client hold more connections to one target than the port range has ports.
 */
final class SourceAddresses {
    static final int MAX = 256;

    private SourceAddresses() {
    }

    /** The parsed addresses; empty for "" or null (the kernel picks the source). */
    static List<InetAddress> parse(String text) {
        List<InetAddress> out = new ArrayList<>();
        if (text == null || text.isBlank()) return out;
        for (String item : text.split(",")) {
            String[] ends = item.trim().split("-", -1);
            if (ends.length > 2) throw bad(text);
            long from = ipv4(ends[0], text);
            long to = ends.length == 2 ? ipv4(ends[1], text) : from;
            if (to < from) throw new UsageError("--source-addresses range " + Params.printable(item.trim()) + " runs backwards");
            if (out.size() + (to - from + 1) > MAX) throw new UsageError("--source-addresses lists more than " + MAX + " addresses");
            for (long a = from; a <= to; a++) out.add(address(a));
        }
        return out;
    }

    private static long ipv4(String text, String whole) {
        String[] parts = text.trim().split("\\.", -1);
        if (parts.length != 4) throw bad(whole);
        long value = 0;
        for (String p : parts) {
            if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > 255) throw bad(whole);
            value = value * 256 + Integer.parseInt(p);
        }
        return value;
    }

    private static InetAddress address(long value) {
        byte[] bytes = {(byte) (value >> 24), (byte) (value >> 16), (byte) (value >> 8), (byte) value};
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an address
        }
    }

    private static UsageError bad(String text) {
        return new UsageError("--source-addresses takes IPv4 addresses and ranges such as 127.0.0.2-127.0.0.9,127.0.1.1; got '" + Params.printable(text) + "'");
    }
}
