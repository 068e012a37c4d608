package loomylin.server.jetty;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.MinimumDataRateHandler;
import org.eclipse.jetty.util.Callback;

/**
 * {@code --min-body-rate}: Jetty's {@link MinimumDataRateHandler} for the requests that have a body to read. A
 * request without one (no {@code Content-Length} above 0 and no {@code Transfer-Encoding}, as HTTP/1.1 frames a
 * message) goes straight to the handler after it, without the request and response wrappers and the byte counting
 * a {@link org.eclipse.jetty.server.handler.StatisticsHandler} (which {@code MinimumDataRateHandler} is) adds to
 * every request it sees; it has no body to be slow with. Its statistics therefore count requests with a body only.
 */
public final class BodyRate extends Handler.Wrapper {
    private final MinimumDataRateHandler rate;

    /** Bodies read slower than {@code minimumBytesPerSecond} fail; Jetty's handler, this wrapper's child, does the work. */
    public BodyRate(long minimumBytesPerSecond) {
        rate = new MinimumDataRateHandler(minimumBytesPerSecond, 0);
        setHandler(rate);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (hasBody(request)) return super.handle(request, response, callback);
        Handler next = rate.getHandler();
        return next != null && next.handle(request, response, callback);
    }

    /** Whether the request's framing announces a body: a positive Content-Length, or a Transfer-Encoding. */
    static boolean hasBody(Request request) {
        long length = request.getLength();
        return length > 0 || (length < 0 && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING));
    }
}
