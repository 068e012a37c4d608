package loomylin.server.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Which threads wrote a server's {@code /wait-async} answers: /pool shows them, so anyone can check that
 * the answers run on the server's own request threads (virtual ones on a virtual-thread pool) and not all
 * on one timer thread. One per server; every method is safe from any thread and never blocks.
 */
public final class AsyncWriters {
    /** Distinct platform threads are counted up to this many: enough to tell one thread from a pool. */
    static final int DISTINCT_CAP = 1_024;

    private final AtomicLong answers = new AtomicLong();
    private final AtomicLong onVirtual = new AtomicLong();
    private final Set<String> platformThreads = ConcurrentHashMap.newKeySet();
    private final AtomicReference<String> last = new AtomicReference<>("");

    /** Call on the thread that writes an answer. */
    public void record() {
        Thread t = Thread.currentThread();
        answers.incrementAndGet();
        if (t.isVirtual()) onVirtual.incrementAndGet();
        else if (platformThreads.size() < DISTINCT_CAP) platformThreads.add(t.getName());
        last.set((t.isVirtual() ? "virtual " : "platform ") + t.getName());
    }

    /**
     * {@code asyncAnswers}: /wait-async answers written; {@code asyncOnVirtual}: of those, on a virtual
     * thread; {@code asyncPlatformThreads}: distinct platform threads that wrote the rest;
     * {@code asyncLastWriter}: "virtual NAME" or "platform NAME" of the latest writer ("" before the first).
     */
    public Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("asyncAnswers", answers.get());
        f.put("asyncOnVirtual", onVirtual.get());
        f.put("asyncPlatformThreads", platformThreads.size());
        f.put("asyncLastWriter", last.get());
        return f;
    }
}
