package loomylin.server.java;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import loomylin.server.jetty.ServerOptions;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;

/**
 * {@code --hop-client jetty}: Jetty's {@link HttpClient}, whose blocking {@code send()} is also async-then-block.
 * No per-backend connection cap (Jetty's default of 64 would queue the requests of a busy server).
 */
final class JettyBlockingHttp implements BlockingHttp {
    private final HttpClient http = new HttpClient();
    private final long timeoutMs;

    JettyBlockingHttp(ServerOptions options) {
        this.timeoutMs = options.hopTimeoutMs();
        http.setConnectTimeout(options.hopConnectTimeoutMs());
        http.setMaxConnectionsPerDestination(65_536);
        http.setMaxRequestsQueuedPerDestination(65_536);
        http.setFollowRedirects(false);
        try {
            http.start();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty's HttpClient did not start", e);
        }
    }

    @Override
    public Answer get(URI uri, Map<String, String> headers) throws IOException, InterruptedException {
        try {
            ContentResponse response = http.newRequest(uri).timeout(timeoutMs, TimeUnit.MILLISECONDS)
                    .headers(h -> headers.forEach(h::put)).send();
            return new Answer(response.getStatus(), response.getContentAsString());
        } catch (TimeoutException e) {
            throw new HttpTimeoutException("request timed out");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof SocketTimeoutException) throw new HttpConnectTimeoutException(cause.getMessage());
            if (cause instanceof ConnectException c) throw c;
            if (cause instanceof TimeoutException) throw new HttpTimeoutException("request timed out");
            throw cause instanceof IOException io ? io : new IOException(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        }
    }

    @Override
    public void close() {
        try {
            http.stop();
        } catch (Exception ignored) {
            // stopping anyway
        }
    }
}
