package loomylin.server.kotlin

import java.io.IOException
import java.net.ConnectException
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpConnectTimeoutException
import java.net.http.HttpTimeoutException
import loomylin.server.jetty.HopClientKind
import loomylin.server.jetty.ServerOptions

/**
 * The blocking HTTP client /hops-blocking waits on, picked by `--hop-client`: one GET with headers, status and
 * body back. Every implementation reports its failures in the JDK client's terms, so [HopClient] turns them into
 * the same 502/504 lines: [HttpConnectTimeoutException] when the backend does not accept within the connect
 * timeout, [HttpTimeoutException] when it does not answer within the hop timeout, [ConnectException] when it
 * refuses, any other [IOException] otherwise.
 */
internal interface BlockingHttp : AutoCloseable {
    data class Answer(val status: Int, val body: String)

    fun get(uri: URI, headers: Map<String, String>): Answer

    /** Aborts calls in flight. */
    override fun close()

    companion object {
        /** The client `options.hopClient` names; `jdk` shares the client /hops-async uses. */
        fun of(options: ServerOptions, jdk: HttpClient): BlockingHttp = when (options.hopClient) {
            HopClientKind.JDK -> JdkBlockingHttp(jdk, options)
            HopClientKind.URL -> UrlConnectionHttp(options)
            HopClientKind.JETTY -> JettyBlockingHttp(options)
        }
    }
}
