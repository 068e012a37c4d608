package loomylin.server.kotlin

import java.io.IOException
import java.net.ConnectException
import java.net.SocketTimeoutException
import java.net.URI
import java.net.http.HttpConnectTimeoutException
import java.net.http.HttpTimeoutException
import java.util.concurrent.ExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException
import loomylin.server.jetty.ServerOptions
import org.eclipse.jetty.client.HttpClient

/**
 * `--hop-client jetty`: Jetty's HttpClient, whose blocking `send()` is also async-then-block. No per-backend
 * connection cap (Jetty's default of 64 would queue the requests of a busy server).
 */
internal class JettyBlockingHttp(options: ServerOptions) : BlockingHttp {
    private val timeoutMs = options.hopTimeoutMs.toLong()
    private val http = HttpClient().apply {
        connectTimeout = options.hopConnectTimeoutMs.toLong()
        maxConnectionsPerDestination = 65_536
        maxRequestsQueuedPerDestination = 65_536
        isFollowRedirects = false
        try {
            start()
        } catch (e: Exception) {
            throw IllegalStateException("Jetty's HttpClient did not start", e)
        }
    }

    override fun get(uri: URI, headers: Map<String, String>): BlockingHttp.Answer =
        try {
            val response = http.newRequest(uri).timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .headers { h -> headers.forEach(h::put) }.send()
            BlockingHttp.Answer(response.status, response.contentAsString)
        } catch (e: TimeoutException) {
            throw HttpTimeoutException("request timed out")
        } catch (e: ExecutionException) {
            throw when (val cause = e.cause ?: e) {
                is SocketTimeoutException -> HttpConnectTimeoutException(cause.message)
                is ConnectException -> cause
                is TimeoutException -> HttpTimeoutException("request timed out")
                is IOException -> cause
                else -> IOException("${cause.javaClass.simpleName}: ${cause.message}", cause)
            }
        }

    override fun close() {
        try {
            http.stop()
        } catch (ignored: Exception) {
            // stopping anyway
        }
    }
}
