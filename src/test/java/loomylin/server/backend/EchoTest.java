package loomylin.server.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The backend's {@code /echo}: N bytes after a delay, strict parameters, many held at once without a thread each. */
class EchoTest {
    static Backend backend;
    static String url;

    @BeforeAll
    static void start() {
        backend = Backend.start("127.0.0.1", 0, 0, Backend.Fault.NONE);
        url = "http://127.0.0.1:" + backend.port() + "/echo";
    }

    @AfterAll
    static void stop() {
        Stops.stop(backend);
    }

    @Test
    void answersTheAskedNumberOfBytes() {
        HttpResponse<String> r = Http.get(url + "?delay=0&bytes=5");
        assertEquals(200, r.statusCode());
        assertEquals("xxxxx", r.body());
        assertEquals(0, Http.get(url + "?delay=0&bytes=0").body().length());
    }

    @Test
    void defaultsAreTheSeedsThirtyTwoBytes() {
        assertEquals(Backend.ECHO_BYTES_DEFAULT, Http.get(url + "?delay=1").body().length());
    }

    @Test
    void badParametersAreOneLine400s() {
        for (String query : List.of("?bytes=-1", "?bytes=abc", "?bytes=" + (Backend.ECHO_BYTES_MAX + 1), "?delay=60001", "?delay=1&delay=2")) {
            HttpResponse<String> r = Http.get(url + query);
            assertEquals(400, r.statusCode(), query);
            assertTrue(r.body().strip().lines().count() == 1, query + ": " + r.body());
        }
    }

    @Test
    void manyDelayedEchoesAreHeldAtOnce() throws Exception {
        List<HttpResponse<String>> answers = Http.concurrently(300, url + "?delay=300&bytes=3");
        assertEquals(300, answers.stream().filter(r -> r.statusCode() == 200 && r.body().equals("xxx")).count());
    }
}
