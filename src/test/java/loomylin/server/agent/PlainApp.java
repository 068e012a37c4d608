package loomylin.server.agent;

/** An application that never builds a Jetty server (though Jetty is on its class path), for {@link AgentTest}. */
public final class PlainApp {
    private PlainApp() {
    }

    public static void main(String[] args) {
        System.out.println("plain app computed " + AppWork.compute(1_000) + " and ran on " + AppWork.thread().strip());
    }
}
