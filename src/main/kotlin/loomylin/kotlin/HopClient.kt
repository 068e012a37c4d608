package loomylin.kotlin

import java.io.IOException
import java.net.ConnectException
import java.net.URI
import java.net.URLEncoder
import java.net.http.HttpClient
import java.net.http.HttpConnectTimeoutException
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.net.http.HttpTimeoutException
import java.nio.charset.StandardCharsets
import java.time.Duration
import java.util.Locale
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionException
import java.util.concurrent.Executors
import loomylin.jetty.ServerOptions
import loomylin.web.HopFailure
import loomylin.web.Json
import loomylin.web.Limits

/**
 * The three backend calls behind /hops-*, each needing the previous answer: authenticate (token -> userId),
 * authorize (userId -> authority), meetings (userId + authority -> meetings JSON). Written twice: blocking
 * ([meetingsBlocking]) and chained futures ([meetingsAsync]), over the JDK's HttpClient.
 */
class HopClient(options: ServerOptions) : AutoCloseable {
    private val backend: URI = options.backend
    private val timeout: Duration = Duration.ofMillis(options.hopTimeoutMs.toLong())
    private val callbacks = Executors.newVirtualThreadPerTaskExecutor()
    private val http: HttpClient = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofMillis(options.hopConnectTimeoutMs.toLong()))
        .executor(callbacks) // the client's own work on virtual threads: no platform pool that grows with load
        .build()

    /** Three blocking calls in a row; the calling thread waits for each. */
    fun meetingsBlocking(token: String, delay: Int?): String {
        val userId = field("authenticate", send("authenticate", authenticate(token, delay)), "userId")
        val authority = field("authorize", send("authorize", authorize(userId, delay)), "authority")
        return json("meetings", send("meetings", meetings(userId, authority, delay)))
    }

    /** The same three calls chained; no thread waits between them. */
    fun meetingsAsync(token: String, delay: Int?): CompletableFuture<String> =
        sendAsync("authenticate", authenticate(token, delay))
            .thenApply { body -> field("authenticate", body, "userId") }
            .thenCompose { userId ->
                sendAsync("authorize", authorize(userId, delay))
                    .thenApply { body -> field("authorize", body, "authority") }
                    .thenCompose { authority -> sendAsync("meetings", meetings(userId, authority, delay)) }
            }
            .thenApply { body -> json("meetings", body) }

    private fun authenticate(token: String, delay: Int?): HttpRequest =
        request("/authenticate?", delay).header("Authorization", "Bearer $token").build()

    private fun authorize(userId: String, delay: Int?): HttpRequest =
        request("/authorize?userId=${encode(userId)}&", delay).build()

    private fun meetings(userId: String, authority: String, delay: Int?): HttpRequest =
        request("/meetings?userId=${encode(userId)}&", delay).header(Limits.AUTHORITY_HEADER, authority).build()

    private fun request(pathAndQuery: String, delay: Int?): HttpRequest.Builder {
        val query = if (delay == null) "" else "delay=$delay"
        return HttpRequest.newBuilder(URI.create("$backend$pathAndQuery$query")).timeout(timeout).GET()
    }


    private fun send(hop: String, request: HttpRequest): String =
        try {
            checked(hop, http.send(request, HttpResponse.BodyHandlers.ofString()))
        } catch (e: IOException) {
            throw failure(hop, e)
        } catch (e: InterruptedException) {
            Thread.currentThread().interrupt()
            throw HopFailure(503, "interrupted while calling backend $backend at $hop")
        }

    private fun sendAsync(hop: String, request: HttpRequest): CompletableFuture<String> =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
            .handle { response, error ->
                if (error != null) throw failure(hop, if (error is CompletionException) error.cause ?: error else error)
                checked(hop, response)
            }

    private fun checked(hop: String, response: HttpResponse<String>): String {
        if (response.statusCode() != 200) throw HopFailure(502, "backend $backend answered ${response.statusCode()} at $hop")
        return response.body()
    }

    private fun field(hop: String, body: String, name: String): String =
        try {
            Json.stringField(body, name)
        } catch (e: Json.Malformed) {
            throw malformed(hop, e)
        }

    private fun json(hop: String, body: String): String =
        try {
            Json.parse(body)
            body
        } catch (e: Json.Malformed) {
            throw malformed(hop, e)
        }

    private fun failure(hop: String, e: Throwable): HopFailure = when (e) {
        is HttpConnectTimeoutException ->
            HopFailure(504, "backend $backend did not accept a connection within the connect timeout at $hop")
        is HttpTimeoutException -> HopFailure(504, "backend $backend did not answer within ${timeout.toMillis()} ms at $hop")
        is ConnectException -> HopFailure(502, "backend $backend is unreachable at $hop (${connectProblem(e)})")
        else -> HopFailure(502, "backend $backend failed at $hop: ${e.javaClass.simpleName}" + (e.message?.let { " $it" } ?: ""))
    }

    private fun malformed(hop: String, e: Json.Malformed) =
        HopFailure(502, "backend $backend sent malformed JSON at $hop (${e.message})")

    /** Aborts backend calls still in flight (their requests answer 502) instead of waiting for them. */
    override fun close() {
        http.shutdownNow()
        callbacks.shutdownNow()
    }
}

private fun encode(s: String): String = URLEncoder.encode(s, StandardCharsets.UTF_8)

/** What the connect attempt ran into, in lower case: "connection refused", "no route to host", ... */
private fun connectProblem(e: Throwable): String =
    generateSequence(e) { it.cause }.mapNotNull { it.message?.takeIf(String::isNotBlank) }.firstOrNull()?.lowercase(Locale.ROOT)
        ?: "could not connect"
