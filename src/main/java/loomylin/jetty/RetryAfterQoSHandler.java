package loomylin.jetty;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's QoSHandler answers 503 when a queued request waited too long (failSuspended) or the queue is
 * full (reject); we add the hint clients need to both.
 */
final class RetryAfterQoSHandler extends QoSHandler {
    @Override
    protected void reject(Request request, Response response, Callback callback, int status) {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        super.reject(request, response, callback, status);
    }

    @Override
    protected void failSuspended(Request request, Response response, Callback callback, int status, Throwable failure) {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        super.failSuspended(request, response, callback, status, failure);
    }
}
