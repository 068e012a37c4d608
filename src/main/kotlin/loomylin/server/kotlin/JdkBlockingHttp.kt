package loomylin.server.kotlin

import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import loomylin.server.jetty.ServerOptions

/**
 * `--hop-client jdk`: the JDK's `HttpClient.send`, which is `sendAsync(...).get()`: the async exchange runs on
 * the client's executor while the calling thread parks on the future.
 */
internal class JdkBlockingHttp(private val http: HttpClient, options: ServerOptions) : BlockingHttp {
    private val timeout = Duration.ofMillis(options.hopTimeoutMs.toLong())

    override fun get(uri: URI, headers: Map<String, String>): BlockingHttp.Answer {
        val request = HttpRequest.newBuilder(uri).timeout(timeout).GET()
        headers.forEach(request::header)
        val response = http.send(request.build(), HttpResponse.BodyHandlers.ofString())
        return BlockingHttp.Answer(response.statusCode(), response.body())
    }

    override fun close() {
        // the HttpClient belongs to HopClient, which closes it
    }
}
