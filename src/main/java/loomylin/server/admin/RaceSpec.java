package loomylin.server.admin;

import io.javalin.http.Context;
import java.util.List;
import loomylin.server.web.BadParameter;
import loomylin.server.web.Limits;
import loomylin.server.web.Params;
import loomylin.server.web.Routes;

/**
 * What a race runs: one endpoint with its parameter, the same closed-loop load (concurrency clients, each
 * sending its next request when the last is answered) on every server port, for a number of seconds.
 *
 * @param route       a workload route, e.g. {@code /wait-blocking}
 * @param parameter   the route's parameter ({@code iterations}, {@code ms} or {@code delay})
 * @param value       its value, within the route's own limits
 * @param concurrency clients per port
 * @param seconds     how long the race runs
 */
public record RaceSpec(String route, String parameter, int value, int concurrency, int seconds) {
    public static final int MAX_CONCURRENCY = 1_000;
    public static final int MAX_SECONDS = 60;

    /** Reads a race from the form fields {@code route}, {@code value}, {@code concurrency}, {@code seconds}; one-line 400 otherwise. */
    static RaceSpec from(Context ctx) {
        String route = ctx.formParam("route");
        if (route == null || !Routes.WORKLOADS.contains(route))
            throw new BadParameter("route must be one of " + String.join(", ", Routes.WORKLOADS) + ", got '" + Params.printable(String.valueOf(route)) + "'");
        String parameter = parameter(route);
        int value = switch (parameter) {
            case "iterations" -> Params.integer(values(ctx, "value"), "value (iterations)", Limits.ITERATIONS_DEFAULT, 0, Limits.ITERATIONS_MAX);
            case "ms" -> Params.integer(values(ctx, "value"), "value (ms)", Limits.MS_DEFAULT, 0, Limits.MS_MAX);
            default -> Params.integer(values(ctx, "value"), "value (delay)", Limits.DELAY_DEFAULT, 0, Limits.DELAY_MAX);
        };
        int concurrency = Params.integer(values(ctx, "concurrency"), "concurrency", 50, 1, MAX_CONCURRENCY);
        int seconds = Params.integer(values(ctx, "seconds"), "seconds", 10, 1, MAX_SECONDS);
        return new RaceSpec(route, parameter, value, concurrency, seconds);
    }

    private static List<String> values(Context ctx, String name) {
        return ctx.formParams(name);
    }

    /** The parameter each workload route takes. */
    static String parameter(String route) {
        return switch (route) {
            case Routes.COMPUTATIONAL -> "iterations";
            case Routes.WAIT_BLOCKING, Routes.WAIT_ASYNC, Routes.WAIT_LOCKED -> "ms";
            default -> "delay";
        };
    }

    /** The path and query every client requests, e.g. {@code /wait-blocking?ms=100}. */
    public String target() {
        return route + "?" + parameter + "=" + value;
    }
}
