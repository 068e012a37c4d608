package loomylin.lab.engine.measure;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** Runs one task every {@code every} on a daemon platform thread of its own, from {@link #start} until {@link #stop}. */
public final class Periodic {
    private final String name;
    private final Duration every;
    private final Runnable task;
    private volatile boolean running;
    private Thread thread;

    public Periodic(String name, Duration every, Runnable task) {
        this.name = name;
        this.every = every;
        this.task = task;
    }

    public void start() {
        running = true;
        thread = Thread.ofPlatform().daemon().name(name).start(() -> {
            while (running) {
                task.run();
                LockSupport.parkNanos(every.toNanos());
            }
        });
    }

    /** Ends the loop and waits at most {@code bound} for a task still running. */
    public void stop(Duration bound) {
        running = false;
        if (thread == null) return;
        LockSupport.unpark(thread);
        try {
            thread.join(bound.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
