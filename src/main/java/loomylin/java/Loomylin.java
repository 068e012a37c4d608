package loomylin.java;

import loomylin.cli.Guard;
import loomylin.cli.Launcher;

/** The Java twin's main, for running from an IDE: the default three servers plus the backend. */
public final class Loomylin {
    private Loomylin() {
    }

    public static void main(String[] args) {
        Guard.run(() -> Launcher.serve(args, "java", AppServer::start));
    }
}
