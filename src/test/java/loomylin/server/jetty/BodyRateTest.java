package loomylin.server.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.MinimumDataRateHandler;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * {@link BodyRate} on a real Jetty server: a request without a body passes by Jetty's MinimumDataRateHandler (it
 * counts none), one with a body (a length, or chunked) goes through it; both are answered by the handler after it.
 * That the rate is enforced on a slow body is {@code ProtocolEdgeTest}'s, on every pool kind of both twins.
 */
class BodyRateTest {

    @Test
    void onlyRequestsWithABodyGoThroughTheRateHandler() throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        BodyRate rate = new BodyRate(128);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String body = Request.asInputStream(request).readAllBytes().length + " bytes";
                response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.US_ASCII)), callback);
                return true;
            }
        });
        server.insertHandler(rate);
        server.start();
        try {
            String base = "http://127.0.0.1:" + connector.getLocalPort() + "/";
            MinimumDataRateHandler inner = server.getDescendant(MinimumDataRateHandler.class);
            assertEquals("0 bytes", Http.get(base).body());
            assertEquals("0 bytes", Http.get(base + "?again").body());
            assertEquals(0, inner.getRequests(), "GETs without a body pass by the rate handler");

            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpResponse<String> sized = client.send(HttpRequest.newBuilder(URI.create(base)).POST(HttpRequest.BodyPublishers.ofString("12345")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("5 bytes", sized.body());
            HttpResponse<String> chunked = client.send(HttpRequest.newBuilder(URI.create(base))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(new byte[] {1, 2, 3}))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("3 bytes", chunked.body());
            assertEquals(2, inner.getRequests(), "a body of known length and a chunked one go through it");
        } finally {
            Stops.stop("body-rate server", server, server::stop);
        }
    }
}
