package loomylin.server.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import loomylin.server.backend.Backend;
import loomylin.testing.Http;
import loomylin.testing.Stops;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

/**
 * The backend keeps its platform threads few whatever the load: 400 concurrent calls, each answered after
 * 300 ms, are served by virtual threads next to the backend pool's few platform threads, with every call
 * recorded once.
 */
class BackendThreadsTest {
    static final int CALLS = 400;

    @Test
    void fourHundredConcurrentCallsAddNoPlatformThreads() throws Exception {
        Backend backend = Backend.start("127.0.0.1", 0, 0, Backend.Fault.NONE);
        try {
            String url = "http://127.0.0.1:" + backend.port() + "/authorize?userId=u&delay=300";
            for (HttpResponse<String> r : Http.concurrently(CALLS, url)) assertEquals(200, r.statusCode(), r.body());
            assertEquals(CALLS, backend.calls().size());
            // this backend's platform threads: its pool's name ("backend-any-N" on port 0) heads their names
            String pool = ((QueuedThreadPool) backend.jettyServer().getThreadPool()).getName() + "-";
            List<String> platform = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .filter(n -> n.startsWith(pool)).toList();
            assertTrue(platform.size() <= Backend.PLATFORM_THREADS, "backend platform threads: " + platform);
            assertTrue(backend.platformThreads() <= Backend.PLATFORM_THREADS, "pool threads: " + backend.platformThreads());
            backend.clearCalls();
            assertEquals(List.of(), backend.calls());
        } finally {
            Stops.stop(backend);
        }
    }
}
