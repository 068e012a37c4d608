package loomylin.server.kotlin

import java.net.HttpURLConnection
import java.net.SocketTimeoutException
import java.net.URI
import java.net.http.HttpConnectTimeoutException
import java.net.http.HttpTimeoutException
import loomylin.server.jetty.ServerOptions

/**
 * `--hop-client url`: [HttpURLConnection], blocking all the way down: on a virtual thread its socket reads park on
 * the JDK's poller directly, and it locks with `ReentrantLock`, not monitors. Its answer timeout bounds each read
 * (it has no whole-request timeout); connections are kept alive by the JDK's cache, which holds at most
 * `http.maxConnections` idle ones per backend (raised here to 1000 unless set).
 */
internal class UrlConnectionHttp(options: ServerOptions) : BlockingHttp {
    private val connectTimeoutMs = options.hopConnectTimeoutMs
    private val timeoutMs = options.hopTimeoutMs

    init {
        if (System.getProperty("http.maxConnections") == null) System.setProperty("http.maxConnections", "1000")
    }

    override fun get(uri: URI, headers: Map<String, String>): BlockingHttp.Answer {
        val connection = uri.toURL().openConnection() as HttpURLConnection
        connection.connectTimeout = connectTimeoutMs
        connection.readTimeout = timeoutMs
        headers.forEach(connection::setRequestProperty)
        try {
            connection.connect()
        } catch (e: SocketTimeoutException) {
            throw HttpConnectTimeoutException(e.message)
        }
        try {
            val status = connection.responseCode
            val body = if (status >= 400) connection.errorStream else connection.inputStream
            return BlockingHttp.Answer(status, body?.use { String(it.readAllBytes(), Charsets.UTF_8) } ?: "")
        } catch (e: SocketTimeoutException) {
            connection.disconnect()
            throw HttpTimeoutException(e.message)
        }
    }

    override fun close() {
        // nothing of its own: the JDK's keep-alive cache closes idle connections itself
    }
}
