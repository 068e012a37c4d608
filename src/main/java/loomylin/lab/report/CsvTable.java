package loomylin.lab.report;

import java.util.List;
import java.util.Map;

/**
 * {@code csv FILE [COLUMN...]}: a measuring script's CSV as a markdown table, every row, the listed columns (all
 * without a list) in their order, with a line naming the file. For results that have no report of their own.
 */
final class CsvTable implements Renderer {
    @Override
    public String usage() {
        return "FILE [COLUMN...] (a CSV file under gfx/results and, optionally, the columns to show)";
    }

    @Override
    public String render(Page page, List<String> args) {
        if (args.isEmpty()) throw new IllegalArgumentException("expected a CSV file and optional columns, got nothing");
        String file = args.get(0);
        List<Map<String, String>> rows = page.files().csv(file);
        if (rows.isEmpty()) throw new IllegalArgumentException(file + " has no rows");
        List<String> columns = args.size() > 1 ? args.subList(1, args.size()) : List.copyOf(rows.get(0).keySet());
        for (String c : columns)
            if (!rows.get(0).containsKey(c)) throw new IllegalArgumentException(file + " has no column '" + c + "'; it has " + rows.get(0).keySet());
        StringBuilder out = new StringBuilder("| " + String.join(" | ", columns.stream().map(CsvTable::cell).toList()) + " |\n|"
                + "---|".repeat(columns.size()));
        for (Map<String, String> row : rows)
            out.append("\n| ").append(String.join(" | ", columns.stream().map(c -> cell(row.get(c))).toList())).append(" |");
        return out + "\n\nFrom " + page.fileLink(file) + ".";
    }

    private static String cell(String text) {
        return text == null || text.isEmpty() ? "" : text.replace("|", "\\|").replace("\n", " ");
    }
}
