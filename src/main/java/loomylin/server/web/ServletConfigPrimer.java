package loomylin.server.web;

import io.javalin.Javalin;
import java.lang.reflect.Method;

/**
 * Javalin 7.2.3 builds its servlet's per-request configuration lazily with Kotlin's unsafe lazy
 * ({@code JavalinServlet.servletContextConfig}, {@code LazyThreadSafetyMode.NONE}): when the first two requests a
 * server ever gets arrive at once, the second can read the initializer after the first cleared it and fail with a
 * {@code NullPointerException} in {@code UnsafeLazyImpl.getValue}, a 500 for that request. {@link #prime} builds
 * it once, on the starting thread, before the server is announced. This class is the only workaround for it;
 * {@code ServletConfigPrimerTest} fails the day Javalin makes that lazy thread-safe, so that it can go.
 */
public final class ServletConfigPrimer {
    static final String GETTER = "getServletContextConfig";

    private ServletConfigPrimer() {
    }

    /** Builds {@code app}'s servlet configuration now; returns {@code app}. Started apps only. */
    public static Javalin prime(Javalin app) {
        try {
            Method getter = app.javalinServlet().getClass().getDeclaredMethod(GETTER);
            getter.setAccessible(true);
            getter.invoke(app.javalinServlet());
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another Javalin: nothing to prime, the first requests take their chance as they would without this
        }
        return app;
    }
}
