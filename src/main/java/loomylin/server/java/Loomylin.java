package loomylin.server.java;

import loomylin.server.cli.Guard;
import loomylin.server.launch.Launcher;
import loomylin.server.launch.ServeOptions;
import loomylin.server.jetty.Twin;

/** The Java twin's main, for running from an IDE: the default three servers plus the backend. */
public final class Loomylin {
    private Loomylin() {
    }

    public static void main(String[] args) {
        Guard.run(() -> Launcher.serve(args, Twin.JAVA, AppServer::start));
    }

    /** Serves what {@code options} asks for with this twin's servers (their twin is already chosen). */
    public static void serve(ServeOptions options) {
        Launcher.serve(options, AppServer::start);
    }
}
