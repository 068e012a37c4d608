package loomylin.server.jetty;

/**
 * What a pool that starts a virtual thread per request (the twins' LoomThreadPool) tells the admin port
 * beyond Jetty's {@link org.eclipse.jetty.util.thread.ThreadPool}: its platform threads, and its virtual
 * threads running and started.
 */
public interface VirtualThreadCounts {
    /** Platform threads alive, for Jetty's selector and acceptor loops. */
    int getPlatformThreads();

    /** Virtual threads running a task now. */
    int getVirtualThreadsRunning();

    /** Virtual threads started since the pool started. */
    long getVirtualThreadsStarted();
}
