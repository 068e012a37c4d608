package loomylin.lab.report;

import java.util.List;

/**
 * Renders one kind of generated section from the committed result files. A renderer is a pure function of the
 * files and its arguments: the same files give the same text, so a committed page can be checked against them.
 */
interface Renderer {
    /** What the arguments are, for the message of a marker that gets them wrong. */
    String usage();

    /** The section's markdown, without the markers and without a trailing newline. */
    String render(Page page, List<String> args);
}
