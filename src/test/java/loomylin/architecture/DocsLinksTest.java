package loomylin.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The front page and the docs pages hold together: every relative link and image points at a file of the
 * repository, every anchor at a heading of its page (as GitHub names headings), the front page stays a front
 * page, and each docs page says first whom it is for.
 */
class DocsLinksTest {
    static final int FRONT_PAGE_MAX_LINES = 250;
    /** The front page from its title to the end of its decision guide: what a reader takes in first. */
    static final int FRONT_PAGE_ANSWER_MAX_CHARS = 8_000;
    static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)\\)");
    static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : links(Files.readString(page))) {
                String problem = problem(page, target);
                if (problem != null) broken.add(page + ": " + target + ": " + problem);
            }
        }
        assertEquals(List.of(), broken, "links that do not resolve");
    }

    @Test
    void theFrontPageIsShort() throws IOException {
        long lines = Files.readAllLines(Path.of("README.md")).size();
        assertTrue(lines <= FRONT_PAGE_MAX_LINES, "README.md has " + lines + " lines, at most " + FRONT_PAGE_MAX_LINES);
    }

    /**
     * The answer, its charts, its figures and the decision guide read in two minutes, and print no bookkeeping:
     * a reading the bench did not decide says "not decided here" or is left to docs/results.md.
     */
    @Test
    void theFrontPageAnswersShortAndQuotesOnlyDecidedReadings() throws IOException {
        String answer = frontPageAnswer(Files.readString(Path.of("README.md")));
        assertTrue(answer.length() <= FRONT_PAGE_ANSWER_MAX_CHARS, "README.md from its title to the end of its decision guide has "
                + answer.length() + " characters, at most " + FRONT_PAGE_ANSWER_MAX_CHARS + ": move detail to docs/results.md");
        assertFalse(answer.contains("not quoted"), "README.md's answer prints a reading it does not quote; say \"not decided here\" or leave it off");
        assertTrue(answer.contains("!["), "README.md's answer shows no chart");
    }

    /** README.md from its start to the last row of the table under "## Decision guide". */
    static String frontPageAnswer(String readme) {
        int guide = readme.indexOf("\n## Decision guide");
        assertTrue(guide >= 0, "README.md has no \"## Decision guide\"");
        int table = readme.indexOf("\n|", guide);
        assertTrue(table >= 0, "README.md's decision guide has no table");
        int end = table + 1;
        while (end < readme.length() && readme.startsWith("|", end)) {
            int next = readme.indexOf('\n', end);
            end = next < 0 ? readme.length() : next + 1;
        }
        return readme.substring(0, end).stripTrailing();
    }

    @Test
    void theAnswerEndsWithTheDecisionGuide() {
        String page = "# t\n\nanswer\n\n## Decision guide\n\n| a |\n|---|\n| b |\n\nafter\n";
        assertEquals("# t\n\nanswer\n\n## Decision guide\n\n| a |\n|---|\n| b |", frontPageAnswer(page));
    }

    @Test
    void everyDocsPageOpensWithItsReader() throws IOException {
        for (Path page : pages()) {
            if (!page.startsWith("docs")) continue;
            String first = paragraphs(Files.readString(page)).get(1);
            assertTrue(first.startsWith("For "), page + " should open with whom it is for (\"For ...\"), opens with: " + first);
        }
    }

    @Test
    void theCheckFindsABrokenLinkAndAMissingAnchor() {
        Path readme = Path.of("README.md");
        assertFalse(problem(readme, "docs/no-such-page.md") == null, "a missing file");
        assertFalse(problem(readme, "docs/results.md#no-such-heading") == null, "a missing anchor");
        assertEquals(null, problem(readme, "docs/results.md"));
        Path waits = Path.of("docs/results/waits.md");
        assertEquals(null, problem(waits, "../../gfx/results/full/results.csv"), "a results page links two directories up");
        assertFalse(problem(waits, "../gfx/results/full/results.csv") == null, "a link written for docs/*.md does not land from docs/results/");
    }

    /** README.md, then every page under docs/ (docs/results/*.md among them), by path. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p)).sorted().forEach(pages::add);
        }
        assertTrue(pages.size() > 1, "run from the project's directory: no docs/*.md found");
        assertTrue(pages.stream().anyMatch(p -> p.startsWith("docs/results")), "no docs/results/*.md found: the results pages are not read");
        return pages;
    }

    /** A docs page a reader finishes: at most this many lines. */
    static final int DOCS_PAGE_MAX_LINES = 400;

    /**
     * Pages over {@link #DOCS_PAGE_MAX_LINES} not split yet, each with why it may be; a page split below the limit
     * must leave this list (the test says so), so that the list cannot hide a page that has grown back.
     */
    static final Map<String, String> NOT_YET_SPLIT = Map.of();

    @Test
    void everyDocsPageIsShortEnoughToFinish() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (Path page : pages()) {
            if (!page.startsWith("docs")) continue;
            long lines = Files.readAllLines(page).size();
            String name = page.toString().replace('\\', '/');
            boolean excepted = NOT_YET_SPLIT.containsKey(name);
            if (lines > DOCS_PAGE_MAX_LINES && !excepted) tooLong.add(name + " has " + lines + " lines");
            if (lines <= DOCS_PAGE_MAX_LINES && excepted) tooLong.add(name + " has " + lines + " lines: take it out of NOT_YET_SPLIT");
        }
        assertEquals(List.of(), tooLong, "docs pages over " + DOCS_PAGE_MAX_LINES + " lines: split them by question, as docs/results/ is");
    }

    /** The link targets of a page, outside fenced code blocks. */
    static List<String> links(String markdown) {
        List<String> targets = new ArrayList<>();
        boolean fenced = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.strip().startsWith("```")) { fenced = !fenced; continue; }
            if (fenced) continue;
            Matcher m = LINK.matcher(line);
            while (m.find()) targets.add(m.group(1));
        }
        return targets;
    }

    /** Why a link from this page does not resolve, or null when it does. */
    static String problem(Path page, String target) {
        if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) return null; // http:, https:, mailto: ... not checked here
        String path = target;
        String anchor = null;
        int hash = path.indexOf('#');
        if (hash >= 0) { anchor = path.substring(hash + 1); path = path.substring(0, hash); }
        int query = path.indexOf('?');
        if (query >= 0) path = path.substring(0, query);
        Path file = path.isEmpty() ? page : resolve(page, path);
        if (!Files.exists(file)) return "no such file " + file;
        if (anchor == null) return null;
        if (!file.toString().endsWith(".md")) return "an anchor into a file that is not markdown";
        try {
            Set<String> anchors = anchors(Files.readString(file));
            return anchors.contains(anchor) ? null : "no heading '" + anchor + "' in " + file;
        } catch (IOException e) {
            return e.toString();
        }
    }

    static Path resolve(Path page, String path) {
        Path dir = page.getParent() == null ? Path.of("") : page.getParent();
        return dir.resolve(path).normalize();
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.strip().startsWith("```")) { fenced = !fenced; continue; }
            if (fenced) continue;
            Matcher m = HEADING.matcher(line);
            if (!m.matches()) continue;
            String slug = slug(m.group(1));
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1"); // a link's text only
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    static List<String> paragraphs(String markdown) {
        List<String> paragraphs = new ArrayList<>();
        for (String p : markdown.split("\n\\s*\n")) if (!p.isBlank()) paragraphs.add(p.strip());
        return paragraphs;
    }
}
