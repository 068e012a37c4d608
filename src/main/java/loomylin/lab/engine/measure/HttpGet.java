package loomylin.lab.engine.measure;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import loomylin.server.cli.StartupFailure;

/**
 * The bench's own small GETs to servers it did not start (their /pool and /metrics): the JDK client, short
 * timeouts, and a failure as one line naming the URL and the reason.
 */
public final class HttpGet {
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    public static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).build();

    private HttpGet() {
    }

    /** The body of a 200 answer; StartupFailure "WHAT URL did not answer: REASON" or "answered N" otherwise. */
    public static String ok(String what, URI url) {
        HttpResponse<String> response;
        try {
            response = CLIENT.send(HttpRequest.newBuilder(url).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new StartupFailure(what + " " + url + " did not answer: " + reason(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("interrupted while asking " + url);
        }
        if (response.statusCode() != 200)
            throw new StartupFailure(what + " " + url + " answered " + response.statusCode() + ", expected 200");
        return response.body();
    }

    private static String reason(IOException e) {
        if (e instanceof HttpConnectTimeoutException) return "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s";
        if (e instanceof HttpTimeoutException) return "no answer within " + TIMEOUT.toSeconds() + " s";
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) return "connection refused";
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) return "unknown host";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
    }
}
