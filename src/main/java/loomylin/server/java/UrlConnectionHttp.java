package loomylin.server.java;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import loomylin.server.jetty.ServerOptions;

/**
 * {@code --hop-client url}: {@link HttpURLConnection}, blocking all the way down: on a virtual thread its socket
 * reads park on the JDK's poller directly, and it locks with {@code ReentrantLock}, not monitors. Its answer
 * timeout bounds each read (it has no whole-request timeout); connections are kept alive by the JDK's cache,
 * which holds at most {@code http.maxConnections} idle ones per backend (raised here to 1000 unless set).
 */
final class UrlConnectionHttp implements BlockingHttp {
    private final int connectTimeoutMs;
    private final int timeoutMs;

    UrlConnectionHttp(ServerOptions options) {
        this.connectTimeoutMs = options.hopConnectTimeoutMs();
        this.timeoutMs = options.hopTimeoutMs();
        if (System.getProperty("http.maxConnections") == null) System.setProperty("http.maxConnections", "1000");
    }

    @Override
    public Answer get(URI uri, Map<String, String> headers) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
        connection.setConnectTimeout(connectTimeoutMs);
        connection.setReadTimeout(timeoutMs);
        headers.forEach(connection::setRequestProperty);
        try {
            connection.connect();
        } catch (SocketTimeoutException e) {
            throw new HttpConnectTimeoutException(e.getMessage());
        }
        try {
            int status = connection.getResponseCode();
            InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            try (body) {
                return new Answer(status, body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (SocketTimeoutException e) {
            connection.disconnect();
            throw new HttpTimeoutException(e.getMessage());
        }
    }

    @Override
    public void close() {
        // nothing of its own: the JDK's keep-alive cache closes idle connections itself
    }
}
