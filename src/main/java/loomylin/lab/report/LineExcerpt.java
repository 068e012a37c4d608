package loomylin.lab.report;

import java.util.List;

/**
 * {@code line FILE WORD}: the paragraph of a report the bench wrote that starts with {@code WORD} (for example the
 * crossover's "Crossover:" sentence), copied as it is, with a line naming the file.
 */
final class LineExcerpt implements Renderer {
    @Override
    public String usage() {
        return "FILE WORD (a markdown file under gfx/results and the word its paragraph starts with)";
    }

    @Override
    public String render(Page page, List<String> args) {
        if (args.size() != 2) throw new IllegalArgumentException("expected a file and a word, got " + args);
        for (String paragraph : page.files().text(args.get(0)).split("\n\\s*\n")) {
            if (paragraph.startsWith(args.get(1))) return paragraph.strip() + "\n\nFrom " + page.fileLink(args.get(0)) + ".";
        }
        throw new IllegalArgumentException(args.get(0) + " has no paragraph starting with " + args.get(1));
    }
}
