package loomylin.server.java;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import loomylin.server.jetty.ServerOptions;

/**
 * {@code --hop-client jdk}: the JDK's {@code HttpClient.send}, which is {@code sendAsync(...).get()}: the async
 * exchange runs on the client's executor while the calling thread parks on the future.
 */
final class JdkBlockingHttp implements BlockingHttp {
    private final HttpClient http;
    private final Duration timeout;

    JdkBlockingHttp(HttpClient http, ServerOptions options) {
        this.http = http;
        this.timeout = Duration.ofMillis(options.hopTimeoutMs());
    }

    @Override
    public Answer get(URI uri, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        headers.forEach(request::header);
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    @Override
    public void close() {
        // the HttpClient belongs to HopClient, which closes it
    }
}
