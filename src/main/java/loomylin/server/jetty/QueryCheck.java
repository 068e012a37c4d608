package loomylin.server.jetty;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers 400 when the query string has a '%' not followed by two hex digits. Without this the
 * parameter silently disappears ({@code ?ms=1%} would wait the default 100 ms instead of failing).
 */
final class QueryCheck extends Handler.Wrapper {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String query = request.getHttpURI().getQuery();
        int bad = query == null ? -1 : badEscape(query);
        if (bad >= 0) {
            Response.writeError(request, response, callback, HttpStatus.BAD_REQUEST_400,
                    "malformed percent-escape at character " + (bad + 1) + " of the query");
            return true;
        }
        return super.handle(request, response, callback);
    }

    /** Index of the first '%' not followed by two hex digits, or -1. */
    static int badEscape(String query) {
        for (int i = query.indexOf('%'); i >= 0; i = query.indexOf('%', i + 1)) {
            if (i + 2 >= query.length() || Character.digit(query.charAt(i + 1), 16) < 0 || Character.digit(query.charAt(i + 2), 16) < 0)
                return i;
        }
        return -1;
    }
}
