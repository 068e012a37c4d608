package loomylin.server.java;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import loomylin.server.jetty.ServerOptions;
import loomylin.server.json.Json;
import loomylin.server.web.HopFailure;
import loomylin.server.web.MixedWork;
import loomylin.server.web.Protocol;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The three backend calls behind /hops-*, each needing the previous answer: authenticate (token -> userId),
 * authorize (userId -> authority), meetings (userId + authority -> meetings JSON). Written twice: blocking
 * ({@link #meetingsBlocking}, over the {@link BlockingHttp} client {@code --hop-client} picks) and chained futures
 * ({@link #meetingsAsync}, over the JDK's HttpClient).
 */
public final class HopClient implements AutoCloseable {
    private final URI backend;
    private final Duration timeout;
    private final ExecutorService callbacks = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http;
    private final BlockingHttp blocking;

    public HopClient(ServerOptions options) {
        this.backend = Objects.requireNonNull(options.backend(), "options.backend()");
        this.timeout = Duration.ofMillis(options.hopTimeoutMs());
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofMillis(options.hopConnectTimeoutMs()))
                .executor(callbacks) // the client's own work on virtual threads: no platform pool that grows with load
                .build();
        this.blocking = BlockingHttp.of(options, http);
    }

    /** Three blocking calls in a row over the {@code --hop-client}; the calling thread waits for each. */
    public JsonNode meetingsBlocking(String token, Integer delay) {
        String userId = field("authenticate", send("authenticate", authenticate(token, delay)), "userId");
        String authority = field("authorize", send("authorize", authorize(userId, delay)), "authority");
        return json("meetings", send("meetings", meetings(userId, authority, delay)));
    }

    /** The same three calls chained over the JDK's HttpClient; no thread waits between them. */
    public CompletableFuture<JsonNode> meetingsAsync(String token, Integer delay) {
        return sendAsync("authenticate", authenticate(token, delay))
                .thenApply(body -> field("authenticate", body, "userId"))
                .thenCompose(userId -> sendAsync("authorize", authorize(userId, delay))
                        .thenApply(body -> field("authorize", body, "authority"))
                        .thenCompose(authority -> sendAsync("meetings", meetings(userId, authority, delay))))
                .thenApply(body -> json("meetings", body));
    }

    /** /mixed's wait as {@code work.calls()} consecutive calls to the backend's /echo over the {@code --hop-client}; the calling thread waits for each. */
    public void echoBlocking(MixedWork work) {
        for (int i = 0; i < work.calls(); i++) send("echo", echo(work.callDelayMs(i)));
    }

    /** The same calls chained over the JDK's HttpClient; no thread waits between them. */
    public CompletableFuture<Void> echoAsync(MixedWork work) {
        CompletableFuture<String> chain = CompletableFuture.completedFuture("");
        for (int i = 0; i < work.calls(); i++) {
            Call call = echo(work.callDelayMs(i));
            chain = chain.thenCompose(previous -> sendAsync("echo", call));
        }
        return chain.thenApply(last -> null);
    }

    private Call echo(int delay) {
        return new Call(URI.create(backend + "/echo?bytes=0&delay=" + delay), Map.of());
    }

    /** One backend call: where, with which headers. */
    private record Call(URI uri, Map<String, String> headers) {
    }

    private Call authenticate(String token, Integer delay) {
        return call("/authenticate?", delay, Map.of("Authorization", "Bearer " + token));
    }

    private Call authorize(String userId, Integer delay) {
        return call("/authorize?userId=" + encode(userId) + "&", delay, Map.of());
    }

    private Call meetings(String userId, String authority, Integer delay) {
        return call("/meetings?userId=" + encode(userId) + "&", delay, Map.of(Protocol.AUTHORITY_HEADER, authority));
    }

    private Call call(String pathAndQuery, Integer delay, Map<String, String> headers) {
        String query = delay == null ? "" : "delay=" + delay;
        return new Call(URI.create(backend + pathAndQuery + query), headers);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private String send(String hop, Call call) {
        try {
            BlockingHttp.Answer answer = blocking.get(call.uri(), call.headers());
            return checked(hop, answer.status(), answer.body());
        } catch (IOException e) {
            throw failure(hop, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HopFailure(503, "interrupted while calling backend " + backend + " at " + hop);
        }
    }

    private CompletableFuture<String> sendAsync(String hop, Call call) {
        HttpRequest.Builder request = HttpRequest.newBuilder(call.uri()).timeout(timeout).GET();
        call.headers().forEach(request::header);
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .handle((response, error) -> {
                    if (error != null) throw failure(hop, error instanceof CompletionException c ? c.getCause() : error);
                    return checked(hop, response.statusCode(), response.body());
                });
    }

    private String checked(String hop, int status, String body) {
        if (status != 200) throw new HopFailure(502, "backend " + backend + " answered " + status + " at " + hop);
        return body;
    }

    /** The non-empty string field {@code name} of the JSON object {@code body}. */
    private String field(String hop, String body, String name) {
        JsonNode json = json(hop, body);
        if (!json.isObject()) throw malformed(hop, "expected a JSON object");
        JsonNode field = json.get(name);
        if (field == null || !field.isString() || field.stringValue().isEmpty()) throw malformed(hop, "no string field '" + name + "'");
        return field.stringValue();
    }

    /** {@code body} as one complete JSON value. */
    private JsonNode json(String hop, String body) {
        try {
            JsonNode json = Json.tree(body);
            if (json.isMissingNode()) throw malformed(hop, "no JSON value");
            return json;
        } catch (JacksonException e) {
            throw malformed(hop, e.getOriginalMessage());
        }
    }

    private HopFailure failure(String hop, Throwable e) {
        if (e instanceof HttpConnectTimeoutException)
            return new HopFailure(504, "backend " + backend + " did not accept a connection within the connect timeout at " + hop);
        if (e instanceof HttpTimeoutException)
            return new HopFailure(504, "backend " + backend + " did not answer within " + timeout.toMillis() + " ms at " + hop);
        if (e instanceof ConnectException)
            return new HopFailure(502, "backend " + backend + " is unreachable at " + hop + " (" + connectProblem(e) + ")");
        return new HopFailure(502, "backend " + backend + " failed at " + hop + ": " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : " " + e.getMessage()));
    }

    /** What the connect attempt ran into, in lower case: "connection refused", "no route to host", ... */
    private static String connectProblem(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) return t.getMessage().toLowerCase(Locale.ROOT);
        }
        return "could not connect";
    }

    private HopFailure malformed(String hop, String problem) {
        return new HopFailure(502, "backend " + backend + " sent malformed JSON at " + hop + " (" + problem + ")");
    }

    @Override
    /** Aborts backend calls still in flight (their requests answer 502) instead of waiting for them. */
    public void close() {
        blocking.close();
        http.shutdownNow();
        callbacks.shutdownNow();
    }
}
