package loomylin.java;

import loomylin.Launcher;
import loomylin.Main;

/** The Java twin's main, for running from an IDE: the default three servers plus the backend. */
public final class Loomylin {
    private Loomylin() {
    }

    public static void main(String[] args) {
        Main.guard(() -> Launcher.serve(args, "java", Servers::start));
    }
}
