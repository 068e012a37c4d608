package loomylin.server.java;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.Map;
import loomylin.server.jetty.ServerOptions;

/**
 * The blocking HTTP client /hops-blocking waits on, picked by {@code --hop-client}: one GET with headers, status
 * and body back. Every implementation reports its failures in the JDK client's terms, so {@link HopClient} turns
 * them into the same 502/504 lines: {@link java.net.http.HttpConnectTimeoutException} when the backend does not
 * accept within the connect timeout, {@link java.net.http.HttpTimeoutException} when it does not answer within the
 * hop timeout, {@link java.net.ConnectException} when it refuses, any other {@link IOException} otherwise.
 */
interface BlockingHttp extends AutoCloseable {

    record Answer(int status, String body) {
    }

    Answer get(URI uri, Map<String, String> headers) throws IOException, InterruptedException;

    /** Aborts calls in flight. */
    @Override
    void close();

    /** The client {@code options.hopClient()} names; {@code jdk} shares the client /hops-async uses. */
    static BlockingHttp of(ServerOptions options, HttpClient jdk) {
        return switch (options.hopClient()) {
            case JDK -> new JdkBlockingHttp(jdk, options);
            case URL -> new UrlConnectionHttp(options);
            case JETTY -> new JettyBlockingHttp(options);
        };
    }
}
