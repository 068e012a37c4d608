package loomylin.lab.report;

import java.nio.file.Path;

/** The page a section is rendered into, and the result files it renders from; links are made relative to the page. */
record Page(Path path, ResultFiles files) {
    /** A link from this page to a file given relative to the repository root. */
    String link(String relative) {
        Path dir = path.getParent() == null ? Path.of("") : path.getParent();
        return dir.relativize(Path.of(relative)).toString().replace('\\', '/');
    }

    /** A markdown link to a result file, its text the file's path from the root. */
    String fileLink(String relative) {
        return "[" + relative + "](" + link(relative) + ")";
    }
}
