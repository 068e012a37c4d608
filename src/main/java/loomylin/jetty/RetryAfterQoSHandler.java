package loomylin.jetty;

import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's QoSHandler answers 503 when a queued request waited too long (failSuspended) or the queue is
 * full (reject); we add the hint clients need to both. It also counts what Jetty's handler does not report:
 * the requests it admitted that have not completed yet, and how long each admitted request waited for its
 * slot ({@link Admission} reads both).
 */
final class RetryAfterQoSHandler extends QoSHandler {
    private static final String ARRIVED = RetryAfterQoSHandler.class.getName() + ".arrived";
    private static final String ADMITTED = RetryAfterQoSHandler.class.getName() + ".admitted";

    private final AtomicInteger admitted = new AtomicInteger();
    private final SecondsHistogram waits = new SecondsHistogram();

    @Override
    public boolean onConditionsMet(Request request, Response response, Callback callback) throws Exception {
        if (request.getAttribute(ARRIVED) == null) request.setAttribute(ARRIVED, System.nanoTime());
        return super.onConditionsMet(request, response, callback);
    }

    /** Jetty calls this once a request subject to the limit has its slot, at once or after waiting (and for excluded paths). */
    @Override
    protected boolean nextHandler(Request request, Response response, Callback callback) throws Exception {
        if (request.getAttribute(ARRIVED) instanceof Long arrived && request.getAttribute(ADMITTED) == null) {
            request.setAttribute(ADMITTED, Boolean.TRUE);
            waits.add(System.nanoTime() - arrived);
            admitted.incrementAndGet();
            Request.addCompletionListener(request, failure -> admitted.decrementAndGet());
        }
        return super.nextHandler(request, response, callback);
    }

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

    /** Requests admitted past the limit and not yet complete. */
    int admitted() {
        return admitted.get();
    }

    SecondsHistogram waits() {
        return waits;
    }
}
