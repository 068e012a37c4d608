package loomylin.testing;

import loomylin.server.backend.Backend;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** A real backend on an ephemeral port for one test class: {@code @RegisterExtension static BackendExtension backend}. */
public final class BackendExtension implements BeforeAllCallback, AfterAllCallback {
    private final int delayMs;
    private final Backend.Fault fault;
    private Backend backend;

    public BackendExtension(int delayMs, Backend.Fault fault) {
        this.delayMs = delayMs;
        this.fault = fault;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        backend = Backend.start("127.0.0.1", 0, delayMs, fault);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Stops.stop(backend);
    }

    public Backend get() {
        return backend;
    }

    public String url() {
        return "http://127.0.0.1:" + backend.port();
    }
}
