package loomylin.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.lang.reflect.Field;
import kotlin.Lazy;
import loomylin.testing.Stops;
import org.junit.jupiter.api.Test;

/**
 * The Javalin race {@link ServletConfigPrimer} works around: the servlet's configuration is an unsafe lazy until
 * the first request, and primed it is built before any request arrives.
 */
class ServletConfigPrimerTest {
    private static Lazy<?> delegate(Javalin app) throws ReflectiveOperationException {
        Field f = app.javalinServlet().getClass().getDeclaredField("servletContextConfig$delegate");
        f.setAccessible(true);
        return (Lazy<?>) f.get(app.javalinServlet());
    }

    @Test
    void javalinStillBuildsItsServletConfigWithAnUnsafeLazy() throws Exception {
        Javalin app = Javalin.create().start("127.0.0.1", 0);
        try {
            Lazy<?> lazy = delegate(app);
            assertEquals("kotlin.UnsafeLazyImpl", lazy.getClass().getName(),
                    "Javalin's servlet config is no longer an unsafe lazy: ServletConfigPrimer may go (and this test with it)");
            assertFalse(lazy.isInitialized(), "a started server that has had no request has not built it");
        } finally {
            Stops.stop(app);
        }
    }

    @Test
    void primingBuildsItBeforeAnyRequest() throws Exception {
        Javalin app = ServletConfigPrimer.prime(Javalin.create().start("127.0.0.1", 0));
        try {
            assertTrue(delegate(app).isInitialized());
        } finally {
            Stops.stop(app);
        }
    }
}
