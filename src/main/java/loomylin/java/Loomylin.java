package loomylin.java;

import loomylin.cli.Guard;
import loomylin.launch.Launcher;
import loomylin.jetty.Twin;

/** The Java twin's main, for running from an IDE: the default three servers plus the backend. */
public final class Loomylin {
    private Loomylin() {
    }

    public static void main(String[] args) {
        Guard.run(() -> Launcher.serve(args, Twin.JAVA, AppServer::start));
    }
}
