package loomylin.server.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A CSV file with a header line, as the bench and its recordings write it: fields may be double-quoted, quotes doubled inside. */
public final class Csv {
    private Csv() {
    }

    /** Each data line as a map from the header's column names to its fields; a short line fills with "". */
    public static List<Map<String, String>> parse(String text) {
        List<List<String>> lines = lines(text);
        List<Map<String, String>> rows = new ArrayList<>();
        if (lines.isEmpty()) return rows;
        List<String> header = lines.get(0);
        for (List<String> line : lines.subList(1, lines.size())) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) row.put(header.get(i), i < line.size() ? line.get(i) : "");
            rows.add(row);
        }
        return rows;
    }

    private static List<List<String>> lines(String text) {
        List<List<String>> lines = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') { field.append('"'); i++; }
                else if (c == '"') quoted = false;
                else field.append(c);
            } else if (c == '"') {
                quoted = true;
                any = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
                any = true;
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') i++;
                if (any || field.length() > 0) { fields.add(field.toString()); lines.add(fields); }
                fields = new ArrayList<>();
                field.setLength(0);
                any = false;
            } else {
                field.append(c);
                any = true;
            }
        }
        if (any || field.length() > 0) { fields.add(field.toString()); lines.add(fields); }
        return lines;
    }
}
