package loomylin.lab.experiment.advise;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * {@code advise --url}: the route of the user's application that is measured, on loopback only, since advise
 * starts the application on this machine and offers it load (a remote host would be someone else's server, and
 * the load would cross a network advise does not measure). {@code localhost} is measured as {@code 127.0.0.1}.
 *
 * @param given       the URL as given
 * @param port        its port (80 when it names none)
 * @param pathAndQuery what is asked of the application, from the first {@code /}
 */
public record AppUrl(String given, int port, String pathAndQuery) {
    public static final String LOOPBACK = "127.0.0.1";

    /** Reads {@code --url}; every mistake one line ({@link UsageError}). */
    public static AppUrl parse(String text) {
        if (text == null || text.isBlank()) throw new UsageError("advise --app needs --url, the route to measure, e.g. --url http://localhost:8080/your/route");
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw new UsageError("--url '" + Params.printable(text) + "' is not a URL: " + e.getReason());
        }
        if (!"http".equals(uri.getScheme()))
            throw new UsageError("--url must be an http:// URL (advise offers plain HTTP/1.1 load), got '" + Params.printable(text) + "'");
        String host = uri.getHost();
        if (!"localhost".equals(host) && !LOOPBACK.equals(host))
            throw new UsageError("--url must be on this machine's loopback (http://localhost or http://127.0.0.1), got host '" + Params.printable(String.valueOf(host)) + "'");
        if (uri.getUserInfo() != null || uri.getFragment() != null)
            throw new UsageError("--url '" + Params.printable(text) + "' has a user or a #fragment: give the route alone");
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return new AppUrl(text.strip(), uri.getPort() < 0 ? 80 : uri.getPort(), path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
    }

    /** What oha and the readiness check ask. */
    public URI measured() {
        return URI.create("http://" + LOOPBACK + ":" + port + pathAndQuery);
    }

    /** Whether something already listens on the port: then the application cannot have it, and what answered would not be it. */
    public boolean portTaken() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(LOOPBACK, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
