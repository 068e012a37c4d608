package loomylin.lab.engine.run;

import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import loomylin.server.cli.UsageError;
import loomylin.server.web.Params;

/**
 * A route to load, as written after {@code --endpoints}: the route name and an optional query that is sent
 * unchanged, e.g. {@code wait-blocking?ms=1000} or {@code hops-async?delay=20}.
 */
public record Endpoint(String route, String query) {

    public static final List<String> ROUTES = loomylin.server.web.Routes.workloadNames();

    /**
     * Contention-free CPU work for P2: 1000 SHA-256 iterations over 256 bytes (4-6 ms of server CPU per request
     * in a smoke-sized, barely warm run on a busy 2-core machine),
     * through /mixed. A build without /mixed falls back to /computational (Math.random's shared seed, so it
     * measures contention too); the report's P2 row names the endpoint it used.
     */
    public static final String CPU = ROUTES.contains("mixed") ? "mixed?cpu=1000&sleep=0&file=0" : "computational";

    /** name=value pairs of URL-safe characters: nothing that would need escaping in a URL or a file name. */
    private static final Pattern QUERY = Pattern.compile("[A-Za-z0-9_.-]+=[A-Za-z0-9_.-]*(&[A-Za-z0-9_.-]+=[A-Za-z0-9_.-]*)*");

    public static Endpoint parse(String text) {
        String spec = text.trim();
        if (spec.startsWith("/")) spec = spec.substring(1);
        int q = spec.indexOf('?');
        String route = q < 0 ? spec : spec.substring(0, q);
        String query = q < 0 ? "" : spec.substring(q + 1);
        if (!ROUTES.contains(route))
            throw new UsageError("unknown endpoint '" + Params.printable(text) + "'; routes: " + String.join(", ", ROUTES));
        if (!query.isEmpty() && !QUERY.matcher(query).matches())
            throw new UsageError("endpoint '" + Params.printable(text) + "': the query must be name=value pairs joined by &");
        return new Endpoint(route, query);
    }

    /** The path and query of the request, e.g. {@code /wait-blocking?ms=1000}. */
    public String pathAndQuery() {
        return "/" + this;
    }

    /** A file-name form, e.g. {@code wait-blocking-ms-1000}: charts are named after it. */
    public String slug() {
        return toString().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /** A whole-number query parameter, if the query sets it. */
    public OptionalInt intParam(String name) {
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name) && pair.substring(eq + 1).matches("\\d{1,9}"))
                return OptionalInt.of(Integer.parseInt(pair.substring(eq + 1)));
        }
        return OptionalInt.empty();
    }

    /** The /hops-* routes call the backend, so a bench that loads them starts one. */
    public boolean usesBackend() {
        return route.startsWith("hops-");
    }

    @Override
    public String toString() {
        return query.isEmpty() ? route : route + "?" + query;
    }
}
