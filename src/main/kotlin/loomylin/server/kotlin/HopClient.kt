package loomylin.server.kotlin

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
import loomylin.server.jetty.ServerOptions
import loomylin.server.json.Json
import loomylin.server.web.HopFailure
import loomylin.server.web.MixedWork
import loomylin.server.web.Protocol
import tools.jackson.core.JacksonException
import tools.jackson.databind.JsonNode

/**
 * The three backend calls behind /hops-*, each needing the previous answer: authenticate (token -> userId),
 * authorize (userId -> authority), meetings (userId + authority -> meetings JSON). Written twice: blocking
 * ([meetingsBlocking], over the [BlockingHttp] client `--hop-client` picks) and chained futures
 * ([meetingsAsync], over the JDK's HttpClient).
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
    private val blocking = BlockingHttp.of(options, http)

    /** Three blocking calls in a row over the `--hop-client`; the calling thread waits for each. */
    fun meetingsBlocking(token: String, delay: Int?): JsonNode {
        val userId = field("authenticate", send("authenticate", authenticate(token, delay)), "userId")
        val authority = field("authorize", send("authorize", authorize(userId, delay)), "authority")
        return json("meetings", send("meetings", meetings(userId, authority, delay)))
    }

    /** The same three calls chained over the JDK's HttpClient; no thread waits between them. */
    fun meetingsAsync(token: String, delay: Int?): CompletableFuture<JsonNode> =
        sendAsync("authenticate", authenticate(token, delay))
            .thenApply { body -> field("authenticate", body, "userId") }
            .thenCompose { userId ->
                sendAsync("authorize", authorize(userId, delay))
                    .thenApply { body -> field("authorize", body, "authority") }
                    .thenCompose { authority -> sendAsync("meetings", meetings(userId, authority, delay)) }
            }
            .thenApply { body -> json("meetings", body) }

    /** /mixed's wait as `work.calls` consecutive calls to the backend's /echo over the `--hop-client`; the calling thread waits for each. */
    fun echoBlocking(work: MixedWork) {
        for (i in 0 until work.calls) send("echo", echo(work.callDelayMs(i)))
    }

    /** The same calls chained over the JDK's HttpClient; no thread waits between them. */
    fun echoAsync(work: MixedWork): CompletableFuture<Void?> {
        var chain: CompletableFuture<String> = CompletableFuture.completedFuture("")
        for (i in 0 until work.calls) {
            val call = echo(work.callDelayMs(i))
            chain = chain.thenCompose { sendAsync("echo", call) }
        }
        return chain.thenApply { null }
    }

    private fun echo(delay: Int): Call = Call(URI.create("$backend/echo?bytes=0&delay=$delay"), mapOf())

    /** One backend call: where, with which headers. */
    private data class Call(val uri: URI, val headers: Map<String, String>)

    private fun authenticate(token: String, delay: Int?): Call =
        call("/authenticate?", delay, mapOf("Authorization" to "Bearer $token"))

    private fun authorize(userId: String, delay: Int?): Call =
        call("/authorize?userId=${encode(userId)}&", delay, mapOf())

    private fun meetings(userId: String, authority: String, delay: Int?): Call =
        call("/meetings?userId=${encode(userId)}&", delay, mapOf(Protocol.AUTHORITY_HEADER to authority))

    private fun call(pathAndQuery: String, delay: Int?, headers: Map<String, String>): Call {
        val query = if (delay == null) "" else "delay=$delay"
        return Call(URI.create("$backend$pathAndQuery$query"), headers)
    }

    private fun send(hop: String, call: Call): String =
        try {
            val answer = blocking.get(call.uri, call.headers)
            checked(hop, answer.status, answer.body)
        } catch (e: IOException) {
            throw failure(hop, e)
        } catch (e: InterruptedException) {
            Thread.currentThread().interrupt()
            throw HopFailure(503, "interrupted while calling backend $backend at $hop")
        }

    private fun sendAsync(hop: String, call: Call): CompletableFuture<String> {
        val request = HttpRequest.newBuilder(call.uri).timeout(timeout).GET()
        call.headers.forEach(request::header)
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
            .handle { response, error ->
                if (error != null) throw failure(hop, if (error is CompletionException) error.cause ?: error else error)
                checked(hop, response.statusCode(), response.body())
            }
    }

    private fun checked(hop: String, status: Int, body: String): String {
        if (status != 200) throw HopFailure(502, "backend $backend answered $status at $hop")
        return body
    }

    /** The non-empty string field `name` of the JSON object `body`. */
    private fun field(hop: String, body: String, name: String): String {
        val json = json(hop, body)
        if (!json.isObject) throw malformed(hop, "expected a JSON object")
        val field = json.get(name)
        if (field == null || !field.isString || field.stringValue().isEmpty()) throw malformed(hop, "no string field '$name'")
        return field.stringValue()
    }

    /** `body` as one complete JSON value. */
    private fun json(hop: String, body: String): JsonNode =
        try {
            Json.tree(body).also { if (it.isMissingNode) throw malformed(hop, "no JSON value") }
        } catch (e: JacksonException) {
            throw malformed(hop, e.originalMessage)
        }

    private fun failure(hop: String, e: Throwable): HopFailure = when (e) {
        is HttpConnectTimeoutException ->
            HopFailure(504, "backend $backend did not accept a connection within the connect timeout at $hop")
        is HttpTimeoutException -> HopFailure(504, "backend $backend did not answer within ${timeout.toMillis()} ms at $hop")
        is ConnectException -> HopFailure(502, "backend $backend is unreachable at $hop (${connectProblem(e)})")
        else -> HopFailure(502, "backend $backend failed at $hop: ${e.javaClass.simpleName}" + (e.message?.let { " $it" } ?: ""))
    }

    private fun malformed(hop: String, problem: String) =
        HopFailure(502, "backend $backend sent malformed JSON at $hop ($problem)")

    /** Aborts backend calls still in flight (their requests answer 502) instead of waiting for them. */
    override fun close() {
        blocking.close()
        http.shutdownNow()
        callbacks.shutdownNow()
    }
}

private fun encode(s: String): String = URLEncoder.encode(s, StandardCharsets.UTF_8)

/** What the connect attempt ran into, in lower case: "connection refused", "no route to host", ... */
private fun connectProblem(e: Throwable): String =
    generateSequence(e) { it.cause }.mapNotNull { it.message?.takeIf(String::isNotBlank) }.firstOrNull()?.lowercase(Locale.ROOT)
        ?: "could not connect"
