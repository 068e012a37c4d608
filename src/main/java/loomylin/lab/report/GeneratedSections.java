package loomylin.lab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of a page the report owns: a line {@code <!-- generated:KIND ARGS... -->} opens one, a line
 * {@code <!-- /generated:KIND -->} closes it, and everything between them is replaced by what the renderer of
 * KIND makes of ARGS. The rest of the page is never touched.
 */
final class GeneratedSections {
    static final Pattern OPEN = Pattern.compile("^<!--\\s*generated:(\\S+)((?:\\s+\\S+)*)\\s*-->\\s*$");
    static final Pattern CLOSE = Pattern.compile("^<!--\\s*/generated:(\\S+)\\s*-->\\s*$");

    private GeneratedSections() {
    }

    /** One generated section of a page: its kind, arguments and the line it opens on (1-based). */
    record Section(String kind, List<String> args, int line) {
        String name() {
            return args.isEmpty() ? kind : kind + " " + String.join(" ", args);
        }
    }

    /** The page with every generated section rendered anew. */
    static String render(String text, Page page, Map<String, Renderer> renderers) {
        return apply(text, page.path().toString(), (section, current) -> render(section, page, renderers));
    }

    /** One section's markdown as its renderer makes it now. */
    static String render(Section section, Page page, Map<String, Renderer> renderers) {
        Renderer renderer = renderers.get(section.kind());
        if (renderer == null)
            throw new ReportError(page.path() + " line " + section.line() + ": unknown generated section '" + section.kind()
                    + "' (known: " + String.join(", ", renderers.keySet().stream().sorted().toList()) + ")");
        try {
            return renderer.render(page, section.args());
        } catch (ResultFiles.MissingResult | IllegalArgumentException e) {
            throw new ReportError(page.path() + " line " + section.line() + ", section '" + section.name() + "': " + e.getMessage()
                    + (e instanceof IllegalArgumentException ? " (usage: " + section.kind() + " " + renderer.usage() + ")" : ""));
        }
    }

    /** The sections of a page, in order. */
    static List<Section> sections(String text, String name) {
        List<Section> found = new ArrayList<>();
        apply(text, name, (s, current) -> {
            found.add(s);
            return current;
        });
        return found;
    }

    /** What goes between a section's markers, given the section and what is there now (without a final newline). */
    interface Body {
        String of(Section section, String current);
    }

    static String apply(String text, String name, Body body) {
        String[] lines = text.split("\n", -1);
        StringBuilder out = new StringBuilder();
        Section open = null;
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher o = OPEN.matcher(line.strip());
            Matcher c = CLOSE.matcher(line.strip());
            if (open == null) {
                if (c.matches()) throw new ReportError(name + " line " + (i + 1) + ": '/generated:" + c.group(1) + "' closes no section");
                append(out, line, i, lines.length);
                if (o.matches()) {
                    String args = o.group(2).strip();
                    open = new Section(o.group(1), args.isEmpty() ? List.of() : Arrays.asList(args.split("\\s+")), i + 1);
                    current.setLength(0);
                }
            } else if (o.matches()) {
                throw new ReportError(name + " line " + (i + 1) + ": a section opens inside '" + open.name() + "' (line " + open.line() + ")");
            } else if (c.matches()) {
                if (!c.group(1).equals(open.kind()))
                    throw new ReportError(name + " line " + (i + 1) + ": '/generated:" + c.group(1) + "' closes '" + open.kind() + "' (line " + open.line() + ")");
                String rendered = body.of(open, current.toString());
                if (!rendered.isEmpty()) out.append(rendered).append('\n');
                append(out, line, i, lines.length);
                open = null;
            } else {
                if (current.length() > 0) current.append('\n');
                current.append(line);
            }
        }
        if (open != null) throw new ReportError(name + " line " + open.line() + ": '" + open.name() + "' is never closed (<!-- /generated:" + open.kind() + " -->)");
        return out.toString();
    }

    private static void append(StringBuilder out, String line, int i, int count) {
        out.append(line);
        if (i < count - 1) out.append('\n');
    }
}
