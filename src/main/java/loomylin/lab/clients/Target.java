package loomylin.lab.clients;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/** Where the clients connect and the one request every connection sends over and over. */
record Target(InetSocketAddress address, URI uri, ByteBuffer request) {

    static Target parse(String text) {
        URI uri;
        try {
            uri = URI.create(text);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || !"http".equals(uri.getScheme()) || uri.getHost() == null)
            throw new UsageError("--target must be an http URL such as http://127.0.0.1:7003/echo, got '" + Params.printable(text) + "'");
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String request = "GET " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + port + "\r\nUser-Agent: loomylin-clients\r\n\r\n";
        byte[] bytes = request.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        return new Target(new InetSocketAddress(uri.getHost(), port), uri, direct.asReadOnlyBuffer());
    }

    /** A fresh view of the request bytes, for one write. */
    ByteBuffer requestBytes() {
        return request.duplicate();
    }
}
