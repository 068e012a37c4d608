package loomylin.lab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GeneratedSectionsTest {
    static final Renderer ECHO = new Renderer() {
        @Override
        public String usage() {
            return "ARGS...";
        }

        @Override
        public String render(Page page, List<String> args) {
            return "echo " + String.join(",", args);
        }
    };
    static final Map<String, Renderer> RENDERERS = Map.of("echo", ECHO);
    static final Page PAGE = new Page(Path.of("docs/page.md"), new ResultFiles(Path.of(".")));

    @Test
    void replacesOnlyWhatIsBetweenTheMarkers() {
        String page = "a\n<!-- generated:echo x y -->\nold\nlines\n<!-- /generated:echo -->\nb\n<!-- generated:echo -->\n<!-- /generated:echo -->";
        assertEquals("a\n<!-- generated:echo x y -->\necho x,y\n<!-- /generated:echo -->\nb\n<!-- generated:echo -->\necho \n<!-- /generated:echo -->",
                GeneratedSections.render(page, PAGE, RENDERERS));
    }

    @Test
    void readsTheSectionsAndWhatTheyHoldNow() {
        List<GeneratedSections.Section> sections = GeneratedSections.sections("<!-- generated:echo a -->\nx\n<!-- /generated:echo -->\n", "p");
        assertEquals(List.of(new GeneratedSections.Section("echo", List.of("a"), 1)), sections);
        assertEquals("echo a", sections.get(0).name());
    }

    @Test
    void aBrokenPageIsOneLineNamingTheLine() {
        assertEquals("docs/page.md line 1: 'echo' is never closed (<!-- /generated:echo -->)",
                assertThrows(ReportError.class, () -> GeneratedSections.render("<!-- generated:echo -->\nx", PAGE, RENDERERS)).getMessage());
        assertEquals("docs/page.md line 2: '/generated:echo' closes no section",
                assertThrows(ReportError.class, () -> GeneratedSections.render("x\n<!-- /generated:echo -->", PAGE, RENDERERS)).getMessage());
        assertEquals("docs/page.md line 2: '/generated:other' closes 'echo' (line 1)",
                assertThrows(ReportError.class, () -> GeneratedSections.render("<!-- generated:echo -->\n<!-- /generated:other -->", PAGE, RENDERERS)).getMessage());
        assertEquals("docs/page.md line 2: a section opens inside 'echo' (line 1)",
                assertThrows(ReportError.class, () -> GeneratedSections.render("<!-- generated:echo -->\n<!-- generated:echo -->", PAGE, RENDERERS)).getMessage());
        String unknown = assertThrows(ReportError.class,
                () -> GeneratedSections.render("<!-- generated:nope -->\n<!-- /generated:nope -->", PAGE, RENDERERS)).getMessage();
        assertTrue(unknown.startsWith("docs/page.md line 1: unknown generated section 'nope' (known: echo)"), unknown);
    }

    @Test
    void linksAreRelativeToThePage() {
        assertEquals("../gfx/results/report.md", PAGE.link("gfx/results/report.md"));
        assertEquals("gfx/results/report.md", new Page(Path.of("README.md"), null).link("gfx/results/report.md"));
    }
}
