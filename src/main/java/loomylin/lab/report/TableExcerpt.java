package loomylin.lab.report;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code table FILE N}: the Nth markdown table (from 1) of a report the bench wrote, copied as it is, with a
 * line naming the file.
 */
final class TableExcerpt implements Renderer {
    @Override
    public String usage() {
        return "FILE N (a markdown file under gfx/results and which of its tables, from 1)";
    }

    @Override
    public String render(Page page, List<String> args) {
        if (args.size() != 2) throw new IllegalArgumentException("expected a file and a table number, got " + args);
        int n;
        try {
            n = Integer.parseInt(args.get(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a table number: " + args.get(1));
        }
        List<String> tables = tables(page.files().text(args.get(0)));
        if (n < 1 || n > tables.size()) throw new IllegalArgumentException(args.get(0) + " has " + tables.size() + " tables, not a table " + n);
        return tables.get(n - 1) + "\n\nFrom " + page.fileLink(args.get(0)) + ".";
    }

    static List<String> tables(String markdown) {
        List<String> tables = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        for (String line : (markdown + "\n").split("\n", -1)) {
            if (line.startsWith("|")) {
                if (table.length() > 0) table.append('\n');
                table.append(line);
            } else if (table.length() > 0) {
                tables.add(table.toString());
                table.setLength(0);
            }
        }
        return tables;
    }
}
