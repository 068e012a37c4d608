package loomylin.server.web;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How every Loomylin server (both twins and the backend) answers what went wrong: a status and one line
 * of plain text, never a stack trace. Unexpected exceptions are logged once, server-side.
 */
public final class ErrorAnswers {
    private static final Logger LOG = LoggerFactory.getLogger("loomylin");

    private ErrorAnswers() {
    }

    public static void apply(JavalinConfig config, String routes) {
        config.routes.exception(BadParameter.class, (e, ctx) -> answer(ctx, 400, e.getMessage()));
        config.routes.exception(OneLineFailure.class, (e, ctx) -> answer(ctx, e.status, e.getMessage()));
        config.routes.exception(Exception.class, (e, ctx) -> {
            if (e instanceof InterruptedException) LOG.info("{} interrupted: the server is stopping", where(ctx));
            else LOG.warn("{} failed", where(ctx), e); // with its stack trace, server-side only
            answer(ctx, 500, "internal error: " + e.getClass().getSimpleName());
        });
        config.routes.error(404, ctx -> answer(ctx, 404,
                "no route " + ctx.method() + " " + Params.printable(ctx.path()) + "; routes: " + routes));
    }

    /** The request's method and path for a log line; a request Jetty already recycled has neither. */
    private static String where(Context ctx) {
        try {
            return ctx.method() + " " + Params.printable(ctx.path());
        } catch (RuntimeException recycled) {
            return "a finished request";
        }
    }

    public static void answer(Context ctx, int status, String line) {
        ctx.status(status).contentType("text/plain; charset=utf-8").result(line + "\n");
    }
}
