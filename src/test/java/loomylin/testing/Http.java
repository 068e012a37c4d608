package loomylin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import loomylin.server.json.Json;

/** Real HTTP for tests: the JDK client, HTTP/1.1, one virtual thread per concurrent request. */
public final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private Http() {
    }

    public static HttpResponse<String> get(String url) {
        return get(url, null);
    }

    public static HttpResponse<String> get(String url, String authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET();
        if (authorization != null) b.header("Authorization", authorization);
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code count} GETs at once and returns every answer. */
    public static List<HttpResponse<String>> concurrently(int count, String url) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) answers.add(threads.submit(() -> get(url)));
            List<HttpResponse<String>> out = new java.util.ArrayList<>();
            for (Future<HttpResponse<String>> f : answers) out.add(f.get());
            return out;
        }
    }

    /** A field of a flat JSON object, e.g. the figures of /pool. */
    public static Object field(HttpResponse<String> response, String name) {
        return ((java.util.Map<?, ?>) Json.parse(response.body())).get(name);
    }

    public static long number(HttpResponse<String> response, String name) {
        return ((Number) field(response, name)).longValue();
    }
}
