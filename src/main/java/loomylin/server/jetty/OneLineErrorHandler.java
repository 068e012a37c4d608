package loomylin.server.jetty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers itself (bad request line, 414, 431, 503 from the in-flight limit or during
 * stop) as one line of plain text like the app's own errors, instead of an HTML page.
 */
final class OneLineErrorHandler extends ErrorHandler {
    OneLineErrorHandler() {
        setShowStacks(false);
        setShowCauses(false);
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        String reason = HttpStatus.getMessage(code);
        String line = code + " " + reason + (message == null || message.isBlank() || message.equals(reason) ? "" : ": " + printable(message)) + "\n";
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.write(true, ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)), callback);
    }

    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().limit(200).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
        return out.toString();
    }
}
