package loomylin.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import loomylin.server.jetty.JettySetup;
import loomylin.server.jetty.PoolKind;
import loomylin.server.jetty.ServerOptions;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import loomylin.testing.Twin;
import loomylin.server.web.ErrorAnswers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What goes wrong is answered in one line: a bad ?reset on both twins, and an unexpected exception, whose stack trace stays server-side. */
@Isolated("replaces System.err")
class ErrorAnswersTest {

    @ParameterizedTest
    @EnumSource(Twin.class)
    void poolResetIsStrict(Twin twin) {
        Javalin app = twin.start(PoolKind.loom(), "http://127.0.0.1:1");
        try {
            HttpResponse<String> r = Http.get("http://127.0.0.1:" + app.port() + "/pool?reset=maybe");
            assertEquals(400, r.statusCode(), r.body());
            assertEquals("reset must be true or false, got 'maybe'\n", r.body());
        } finally {
            Stops.stop(app);
        }
    }

    @Test
    void anUnexpected500IsOneLineForTheClientAndAStackTraceInTheLog() {
        // a route of this test throws what no Loomylin route expects; the answer and the log are ErrorAnswers' own
        ServerOptions options = ServerOptions.DEFAULTS.withHost("127.0.0.1").withPort(0);
        Javalin app = Javalin.create(config -> {
            JettySetup.apply(config, options);
            ErrorAnswers.apply(config, "/boom");
            config.routes.get("/boom", ctx -> {
                throw new IllegalStateException("a bug");
            });
        });
        PrintStream stderr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8)); // slf4j-simple writes to the current System.err
        try {
            app.start();
            HttpResponse<String> r = Http.get("http://127.0.0.1:" + app.port() + "/boom");
            assertEquals(500, r.statusCode());
            assertEquals("internal error: IllegalStateException\n", r.body());
        } finally {
            Stops.stop(app);
            System.setErr(stderr);
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        assertTrue(logged.contains("GET /boom failed"), logged);
        assertTrue(logged.contains("java.lang.IllegalStateException: a bug"), logged);
        assertTrue(logged.contains("\tat " + ErrorAnswersTest.class.getName()), "the stack trace, down to the throwing line: " + logged);
    }
}
