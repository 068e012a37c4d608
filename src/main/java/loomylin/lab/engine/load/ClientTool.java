package loomylin.lab.engine.load;

import java.nio.file.Path;

/**
 * A load generator as a command's flags name it: {@code --hey}, {@code --wrk} or {@code --oha PATH}, or none (the
 * one on PATH). Options hold this, not a path, so reading a command's flags (and {@code --rerender}, which runs
 * nothing) needs no tool on the machine; a run finds the binary when it starts ({@link ClientBinary#locate}). A
 * path the user gave is checked at once: a mistake in a flag is said before anything runs.
 */
public record ClientTool(Client client, Path given) {
    public ClientTool {
        if (given != null) ClientBinary.locate(client, given);
    }

    /** The binary, or a one-line usage error naming its install command. */
    public Path locate() {
        return ClientBinary.locate(client, given);
    }
}
