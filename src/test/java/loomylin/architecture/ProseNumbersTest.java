package loomylin.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import loomylin.testing.IntegrationTest;
import loomylin.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written prose of the front page and the docs says what its files say: every number outside the
 * sections {@code report} renders sits in a sentence (or table row, or list item) that links a committed data
 * file, and that file holds the number at the prose's printed precision; a number with no such link is a
 * non-measured fact that a structural rule or {@link #ALLOWED} names.
 *
 * <p>Which files hold a number: the data files its sentence links (or names as {@code REV:gfx/...}, read with
 * {@code git show} by the {@code @IntegrationTest} method); in a list item whose sentence links none, those the item links; a table row is one sentence. The
 * sentences of {@link #SETTINGS_SECTIONS} need no link, but one that links a data file is held to it.
 *
 * <p>What it cannot see: a number that is in its file but describes another cell (a connection count quoted as
 * the wrong level), and a coincidence in a large CSV; it holds the prose to its files, it does not read it.
 *
 * <p>What is not prose, and so not checked: generated sections ({@code <!-- generated:... -->} to
 * {@code <!-- /generated:... -->}: {@code ReportTest} holds them to their files), fenced code blocks, inline code
 * (flags, routes, pool specs such as {@code qtp:32}, commands), headings (anchors and titles), link targets,
 * HTML comments, and the identifiers a number is part of (seed004, P10, p99, JDK-8329593, #14330, c=50, v1.2.3,
 * dates). See {@link #numbers} for the tokenizer and {@link #matches} for the rounding rule.
 */
class ProseNumbersTest {

    /**
     * Numbers that are facts of the code, the machine or the world rather than measurements, each rule a regular
     * expression whose match must cover the number, with why it needs no file. Kept short on purpose: a measured
     * number belongs beside a link to its file, not here.
     */
    static final List<Allowed> ALLOWED = List.of(
            new Allowed("(?:JDK|Java|Jetty|Javalin|Kotlin|Debian|Temurin|JEP|Spring|Selenium|XChart|podman|PR)s? \\d+(?:\\.\\d+)*(?:[+]|-loom| or newer(?: \\(\\d+ recommended\\))?)?", "a version, a JEP's or a pull request's number"),
            new Allowed("[Ss]eeds? \\d{3}(?:(?:-| and | or |, )\\d{3})*|\\b00[0-4](?:'s)?\\b", "a seed's number in the project's records"),
            new Allowed("\\bports? \\d{4}(?:-\\d{4})?|^\\| ?700[0-4] ?\\|", "a port"),
            new Allowed("\\b\\d+(?:-core|-cores| cores?| vCPUs?| other cores)\\b", "the machine's or a seed's core count (provenance.json names the machine)"),
            new Allowed("\\b[\\d,]+(?:\\.\\d+)? (?:request threads|platform threads|threads|clients) / \\d+(?:\\.\\d+)? s(?: = [\\d,]+ req/s)?", "Little's law on a pool's size or the clients and the wait: arithmetic on the inputs, not a measurement"),
            new Allowed("\\b(?:starts )?8 threads (?:growing|and grows) to 200\\b|\\b(?:starts its )?200(?: threads)? (?:started )?up front", "Jetty's new QueuedThreadPool() defaults (8 threads, at most 200) and the qtp:200 pool's size: facts of the code"),
            new Allowed("\\b[Ss]eed \\d{3}(?::|'s) (?:[^;).]|\\.\\d)*|\"[^\"]*\"", "a seed's own published figure, or a quotation (the seeds' texts are not in this repository)"),
            new Allowed("\\b\\d+ invocations? × \\d+ repeats?|\\b\\d+ (?:runs|client JVMs|configurations)\\b|\\b\\d+ models? x \\d+ levels? x \\d+ repeats?|\\b\\d+ repeats? in each of \\d+ invocations|\\b\\d+ repeats\\b", "a preset's plan: how many runs it makes"),
            new Allowed("\\b[\\d,]+ open-file limit", "the machine's open-file limit, a setting"),
            new Allowed("\\bparallelism of \\d+|\\bkept \\d+ % (?:or more )?of the", "the scheduler's parallelism and --client-limit's threshold: settings"),
            new Allowed("\\b\\d+ % apart reads NOISE|NOISE rule's \\d+ %|under about \\d+ % as noise|under [\\d,]+ answers or under \\d+ per client|hey's \\d+ s timeout", "the bench's NOISE and too-short rules (TargetsTest and RunResult hold them) and hey's timeout: settings"),
            new Allowed("\\bhas \\d+ request threads", "a pool's request threads (ConcurrencyTest holds them)"),
            new Allowed("\\b200\\b(?=[^.]*default maximum)", "Jetty's QueuedThreadPool's default maximum of threads, a fact of Jetty's code"),
            new Allowed("\\b\\d+ platform threads \\(\\d+ serve requests", "a pool's size and its request threads (ConcurrencyTest holds them)"),
            new Allowed("^\\| 00[0-4] \\|.*", "the seeds table: what each seed measured, and which preset re-measures it"),
            new Allowed("\\b[Ee]xperiments? \\d(?: and \\d)?(?:'s)?", "the fibers-server seed's experiment numbers"),
            new Allowed("\\((?:\\d+|\\d+\\.\\d+) % (?:sleep|CPU)[^)]*\\)|\\b\\d+ % sleep, \\d+ % I/O, \\d+ % CPU|\\b(?:10|100) ms requests?\\b|\\b1 s requests?\\b", "the fibers-server seed's request mixes and durations, the preset's inputs"),
            new Allowed("\\bP\\d+(?:-P\\d+)?\\b", "a target's name"),
            new Allowed("\\(default \\d+\\)|\\bdefault(?:s? to)? \\d+(?:\\.\\d+)?", "a flag's default"),
            new Allowed("\\bexits? (?:with status )?\\d\\b|\\bstatus \\d\\b", "an exit status"),
            new Allowed("\\bRSS ends within \\+\\d+ %|threads within \\+\\d+|the \\d+ MB heap|CI runs it for \\d+ s|\\d+-\\d+ s;", "the soak script's pass thresholds and settings"),
            new Allowed("a header line every \\d+ ms against a \\d+ s deadline|up to [\\d,]+ clients per port for \\d+ s", "a test's or the race's settings"));

    /**
     * Sections whose numbers are the code's and the bench's settings (flags and their defaults, routes, limits,
     * test parameters, the presets' plans), not measurements: here a number needs no link, but a sentence or row
     * that links a data file is still held to it. Each: page, heading, why.
     */
    static final List<List<String>> SETTINGS_SECTIONS = List.of(
            List.of("docs/reference/running.md", "*", "how to build and start it, and hey's commands"),
            List.of("docs/reference/endpoints.md", "*", "routes, their parameters' ranges and defaults; the tests hold them"),
            List.of("docs/reference/pools-and-flags.md", "*", "pool kinds, flags, limits and defaults of the code; --help and the tests hold them"),
            List.of("docs/reference/live-view-and-metrics.md", "*", "the live view's refresh and windows, the race's limits, the metrics' series"),
            List.of("docs/reference/agent.md", "*", "the agent's arguments and what it swaps"),
            List.of("docs/reference/advise.md", "*", "advise's flags, defaults, plan and rules"),
            List.of("docs/reference/bare-jetty.md", "*", "bare-jetty's flags"),
            List.of("docs/deployment.md", "*", "Docker, compose and Kubernetes settings"),
            List.of("docs/testing.md", "*", "the tests' parameters"),
            List.of("docs/architecture.md", "## Layout", "the code's layers and packages"),
            List.of("docs/architecture.md", "### Where Loomylin leans on Jetty's unexported classes", "the code's use of Jetty internals"),
            List.of("docs/architecture.md", "## Dependencies", "dependency versions"),
            List.of("docs/methodology.md", "# Methodology: the rules a published number passed", "the pages of the methodology and the experiments they cover"),
            List.of("docs/methodology.md", "## The one set of rules", "the rules' thresholds: runs and invocations a verdict needs"),
            List.of("docs/methodology.md", "## Warm until the JIT is quiet", "the warm-up's rule: its share, slices and bounds (Warmup and JitWarmupTest hold them)"),
            List.of("docs/methodology.md", "## The settle gate", "the settle gate's thresholds and slices (Warmup holds them)"),
            List.of("docs/methodology.md", "## The marks", "the marks' thresholds (RunResult, ClientLimit and FixedLoad hold them)"),
            List.of("docs/methodology.md", "## Invocations and the noise line", "the invocations' flags and the NOISE rule (TargetsTest holds it)"),
            List.of("docs/methodology.md", "## Verdicts", "the verdict rule's minimum of runs and invocations"),
            List.of("docs/methodology/bench.md", "*", "the bench's flags, presets, windows and targets' goals"),
            List.of("docs/methodology/output.md", "*", "the files and columns a bench writes, and the report's section kinds"),
            List.of("docs/methodology/seed004.md", "*", "the preset's plan"),
            List.of("docs/methodology/bound-and-admission.md", "*", "the presets' plans, loads and limits"),
            List.of("docs/methodology/database.md", "*", "the preset's plan, pools and loads"),
            List.of("docs/methodology/jdk.md", "*", "the preset's plan"),
            List.of("docs/methodology/crossover.md", "*", "the preset's plan"),
            List.of("docs/methodology/floor.md", "*", "the preset's plan"),
            List.of("docs/methodology/connections.md", "*", "the presets' plans, the clients' flags, and the kernel's limits and the flags that lift them"),
            List.of("docs/reliability/faults.md", "*", "what each fault test sends and expects (status codes, timeouts, counts)"),
            List.of("docs/reliability/stops.md", "*", "what the stop tests send and expect (graces, requests, stops, bounds)"),
            List.of("docs/reliability/hostile-input.md", "## Hostile and malformed input", "what the hostile-input tests send and expect"));

    static String settingsSection(Path page, String heading) {
        for (List<String> e : SETTINGS_SECTIONS) {
            if (!Path.of(e.get(0)).equals(page)) continue;
            if (e.get(1).equals("*") || e.get(1).equals(heading)) return e.get(2);
        }
        return null;
    }

    record Allowed(Pattern pattern, String why) {
        Allowed(String regex, String why) { this(Pattern.compile(regex), why); }
    }

    /** A data file a link may point at: a result under gfx/results, or a csv, json or txt anywhere. */
    static boolean isData(Path file) {
        String name = file.toString().replace('\\', '/');
        if (name.endsWith(".png") || name.endsWith(".svg") || name.endsWith(".jpg")) return false;
        return name.startsWith("gfx/results/") || name.matches(".*\\.(csv|json|txt|jfr|log)$");
    }

    // ---------------------------------------------------------------------------------------------------------

    @Test
    void everyNumberInTheProseIsInTheFileItsSentenceLinks() throws IOException {
        Result all = checkAllPages(ProseNumbersTest::readData);
        System.out.println("ProseNumbersTest: " + all.checked() + " numbers checked against their files, " + all.deferred()
                + " left to the integration run (quoted from an earlier commit's files), " + all.problems().size() + " problems");
        assertTrue(all.checked() > 100, "the tokenizer found only " + all.checked() + " numbers: is it still reading the docs?");
        assertEquals(List.of(), all.problems(), "numbers in the prose that their linked files do not hold, or that have no link"
                + " (link the result file in the same sentence, correct the number from it, or, for a non-measured fact, add a rule to ALLOWED)");
    }

    /** Figures quoted from an earlier commit's result files ({@code 4ff2ef4:gfx/results/targets.csv}), read with git. */
    @Test
    @IntegrationTest
    void figuresQuotedFromAnEarlierCommitAreInItsFiles() throws IOException {
        Path git = Tools.assumeOnPath("git", "apt-get install git");
        Result all = checkAllPages(withGit(git));
        System.out.println("ProseNumbersTest with git: " + all.checked() + " numbers checked, " + all.problems().size() + " problems");
        assertEquals(0, all.deferred(), "every file a number cites was read");
        assertEquals(List.of(), all.problems(), "numbers the cited files (an earlier commit's included) do not hold");
    }

    static Result checkAllPages(Function<Path, String> read) throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0, deferred = 0;
        for (Path page : DocsLinksTest.pages()) {
            Result r = check(page, Files.readString(page), read);
            problems.addAll(r.problems());
            checked += r.checked();
            deferred += r.deferred();
        }
        return new Result(checked, deferred, problems);
    }

    @Test
    void aPlantedWrongNumberFails(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("gfx/results/x/results.csv");
        Files.createDirectories(csv.getParent());
        Files.writeString(csv, "pool,rps,ratio,p99_ms\nloom,2442.3,1.6874,15528\n");
        Function<Path, String> read = p -> readData(dir.resolve(p));
        Path page = Path.of("docs/planted.md");
        String right = "`loom` made 2,442 req/s, 1.69x, p99 15.5 s ([file](../gfx/results/x/results.csv)).\n";
        assertEquals(List.of(), check(page, right, read).problems(), "the right numbers pass");
        assertEquals(3, check(page, right, read).checked(), "2,442, 1.69 and 15.5 (p99 is a name)");

        List<String> wrong = check(page, "`loom` made 2,443 req/s, 1.69x ([file](../gfx/results/x/results.csv)).\n", read).problems();
        assertEquals(1, wrong.size(), "a wrong number fails: " + wrong);
        assertTrue(wrong.getFirst().contains("docs/planted.md:1") && wrong.getFirst().contains("2,443")
                && wrong.getFirst().contains("gfx/results/x/results.csv"), "names page, line, number and file: " + wrong);
        assertEquals(List.of(), check(page, "`loom` made 1.7x ([file](../gfx/results/x/results.csv)).\n", read).problems(),
                "1.6874 prints as 1.7 at one decimal");
        assertEquals(1, check(page, "`loom` made 1.68x ([file](../gfx/results/x/results.csv)).\n", read).problems().size(),
                "1.6874 does not print as 1.68");
        List<String> unlinked = check(page, "`loom` made 1.69x more.\n", read).problems();
        assertEquals(1, unlinked.size(), "a number with no link and no rule fails: " + unlinked);
        assertTrue(unlinked.getFirst().contains("no linked data file"), unlinked.getFirst());
        assertEquals(List.of(), check(page, "On JDK 25 with `--grace-ms 1000` on port 7000 ([file](../docs/x.md#a-1)).\n", read).problems(),
                "versions, inline code and ports are not measurements");
    }

    @Test
    void theTokenizerReadsNumbersAsPrinted() {
        List<String> read = numbers("0.96-1.02x, 2,442 req/s at 15k, 45 %, idle RSS 705-714 MiB, seed004, p99, c=50, JDK-8329593, #14330, "
                + "2026-11-25, 25.0.3, qtp:4, 2xx, 3rd").stream().map(n -> n.text() + "|" + n.unit()).toList();
        assertEquals(List.of("0.96|x", "1.02|x", "2,442|", "15|k", "45|%", "705|MiB", "714|MiB"), read);
        Path page = Path.of("docs/planted.md");
        String notProse = "<!-- generated:bullets -->\n- 9.99x\n<!-- /generated:bullets -->\n```\nrun 1.23 times\n```\n"
                + "## P4 at 1000 clients\nWith `--max-in-flight 36` and [this page](../docs/x-2.md#p4-at-1000-clients).\n";
        Result r = check(page, notProse, p -> "");
        assertEquals(List.of(), r.problems(), "generated sections, code blocks, inline code, headings and link targets are not prose");
    }

    // ---------------------------------------------------------------------------------------------------------

    /** How many numbers were held to a file, how many cite only files this run cannot read, and what failed. */
    record Result(int checked, int deferred, List<String> problems) {}

    static final Pattern OPEN = Pattern.compile("^<!--\\s*generated:(\\S+).*-->\\s*$");
    static final Pattern CLOSE = Pattern.compile("^<!--\\s*/generated:(\\S+)\\s*-->\\s*$");
    static final Pattern ITEM = Pattern.compile("^\\s*(?:[-*+]|\\d+\\.)\\s+");
    static final Pattern HEADING = Pattern.compile("^#{1,6}\\s");
    static final Pattern LINK = Pattern.compile("(!?)\\[((?:[^\\]\\[]|\\[[^\\]]*\\])*)\\]\\(([^)\\s]+)\\)");
    static final Pattern CODE = Pattern.compile("(`+)(.+?)\\1");
    /**
     * A sentence naming a test class ({@code ConcurrencyTest}), a script ({@code scripts/jdk21.sh}) or a reliability
     * command of the jar ({@code loomylin.jar soak}) and linking no data file states that test's, script's or command's
     * parameters and what it asserts: the code holds them.
     */
    static final Pattern TEST_CLASS = Pattern.compile("\\b[A-Z]\\w*Test\\b|\\bscripts/[\\w-]+\\.sh\\b|\\bloomylin\\.jar (?:soak|slow-clients)\\b");
    static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z(*\\[`\"])");

    /** One unit of prose: a paragraph, a list item or a table row, with the page line of each of its characters. */
    record Unit(String text, int[] lines, Kind kind, String heading) {}

    enum Kind { PARAGRAPH, ITEM, ROW }

    /** Checks one page: its problems, and how many numbers it held to files. */
    static Result check(Path page, String markdown, Function<Path, String> read) {
        List<String> problems = new ArrayList<>();
        int checked = 0, deferred = 0;
        for (Unit unit : units(markdown)) {
            List<int[]> spans = unit.kind() == Kind.ROW ? List.of(new int[] {0, unit.text().length()}) : sentences(unit.text());
            for (int[] span : spans) {
                String sentence = unit.text().substring(span[0], span[1]);
                // the files its sentence cites; in a list item, else the item's (a table row is one unit)
                Set<Path> files = sources(page, sentence);
                if (files.isEmpty() && unit.kind() == Kind.ITEM) files = sources(page, unit.text());
                String text = plain(sentence);
                boolean namesTest = TEST_CLASS.matcher(sentence).find();
                String why = settingsSection(page, unit.heading());
                if (why != null && why.startsWith("being rewritten")) continue;
                boolean settings = why != null;
                if (settings) files = sources(page, sentence); // only its own links hold a settings sentence
                for (Num n : numbers(text)) {
                    int line = unit.lines()[span[0] + Math.min(n.start(), sentence.length() - 1)];
                    if (allowed(text, n) != null) continue;
                    if (namesTest && dataLinks(page, sentence).isEmpty()) continue; // the test it names holds its parameters and assertions
                    if (files.isEmpty() && settings) continue;
                    if (files.isEmpty()) {
                        problems.add(page + ":" + line + ": '" + n.text() + "' has no linked data file in its sentence (or list item) and no rule in ALLOWED: \"" + around(text, n) + "\"");
                        continue;
                    }
                    boolean found = false, unread = false;
                    for (Path f : files) {
                        String data = read.apply(f);
                        if (data == null) { unread = true; continue; } // an earlier commit's file: read where git may run
                        if (holds(data, n)) { found = true; break; }
                    }
                    if (!found && unread) { deferred++; continue; }
                    checked++;
                    if (!found) problems.add(page + ":" + line + ": '" + n.text() + "' is not in " + files + ": \"" + around(text, n) + "\"");
                }
            }
        }
        return new Result(checked, deferred, problems);
    }

    /** The page's prose units, outside code blocks, generated sections, headings and comments. */
    static List<Unit> units(String markdown) {
        String heading = "";
        List<Unit> units = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        StringBuilder text = new StringBuilder();
        List<Integer> at = new ArrayList<>();
        boolean fenced = false;
        boolean item = false;
        String generated = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String s = line.strip();
            boolean skip = false;
            String nextHeading = heading;
            if (generated != null) {
                Matcher c = CLOSE.matcher(s);
                if (c.matches() && c.group(1).equals(generated)) generated = null;
                skip = true;
            } else if (s.startsWith("```")) { fenced = !fenced; skip = true; }
            else if (fenced) skip = true;
            else if (OPEN.matcher(s).matches()) {
                Matcher o = OPEN.matcher(s);
                o.matches();
                generated = o.group(1);
                skip = true;
            }
            else if (HEADING.matcher(s).find()) {
                // a #### subsection stays in its section (for SETTINGS_SECTIONS); ## and ### start their own
                if (!s.startsWith("#### ")) nextHeading = s;
                skip = true;
            }
            else if (s.startsWith("<!--")) skip = true;
            boolean row = !skip && s.startsWith("|");
            boolean startsItem = !skip && ITEM.matcher(line).find();
            if (skip || s.isEmpty() || row || startsItem) { flush(units, text, at, item, heading); item = false; }
            heading = nextHeading; // the text before a heading belongs to the section above it
            if (skip || s.isEmpty()) continue;
            if (row) {
                if (!s.matches("^\\|[\\s|:-]*$")) units.add(unit(s, i + 1, heading));
                continue;
            }
            if (startsItem) item = true;
            if (text.length() > 0) { text.append(' '); at.add(i + 1); }
            for (int k = 0; k < s.length(); k++) at.add(i + 1);
            text.append(s);
        }
        flush(units, text, at, item, heading);
        return units;
    }

    static Unit unit(String s, int line, String heading) {
        int[] lines = new int[s.length() + 1];
        java.util.Arrays.fill(lines, line);
        return new Unit(s, lines, Kind.ROW, heading);
    }

    static void flush(List<Unit> units, StringBuilder text, List<Integer> at, boolean item, String heading) {
        if (text.length() > 0) {
            int[] lines = new int[at.size() + 1];
            for (int k = 0; k < at.size(); k++) lines[k] = at.get(k);
            lines[at.size()] = at.isEmpty() ? 0 : at.getLast();
            units.add(new Unit(text.toString(), lines, item ? Kind.ITEM : Kind.PARAGRAPH, heading));
        }
        text.setLength(0);
        at.clear();
    }

    /** Sentence spans of a paragraph or list item: a sentence ends at . ! or ? before a capital, a link or code. */
    static List<int[]> sentences(String text) {
        List<int[]> spans = new ArrayList<>();
        Matcher m = SENTENCE_END.matcher(text);
        int start = 0;
        while (m.find()) {
            if (insideBrackets(text, m.start())) continue;
            spans.add(new int[] {start, m.start()});
            start = m.end();
        }
        spans.add(new int[] {start, text.length()});
        return spans;
    }

    /** A sentence end inside a link's text or a parenthesis does not end the sentence around it. */
    static boolean insideBrackets(String text, int at) {
        int round = 0, square = 0;
        boolean code = false;
        for (int i = 0; i < at; i++) {
            char c = text.charAt(i);
            if (c == '`') code = !code;
            if (code) continue;
            if (c == '(') round++;
            else if (c == ')' && round > 0) round--;
            else if (c == '[') square++;
            else if (c == ']' && square > 0) square--;
        }
        return round > 0 || square > 0 || code;
    }

    /** A file at an earlier commit, named in inline code as {@code git show REV:PATH} (PATH may follow as {@code REV:PATH}). */
    static final Pattern GIT_SHOW = Pattern.compile("`(?:git show )?([0-9a-f]{7,40}):(gfx/[^`\\s]+)`");

    /** The files a piece of prose cites: its links to data files and the earlier commits' files it names. */
    static Set<Path> sources(Path page, String text) {
        Set<Path> files = dataLinks(page, text);
        files.addAll(gitShows(text));
        return files;
    }

    static Set<Path> gitShows(String sentence) {
        Set<Path> files = new LinkedHashSet<>();
        Matcher m = GIT_SHOW.matcher(sentence);
        while (m.find()) files.add(Path.of("git-show", m.group(1), m.group(2)));
        return files;
    }

    /** The data files a piece of prose links, resolved from its page. */
    static Set<Path> dataLinks(Path page, String text) {
        Set<Path> files = new LinkedHashSet<>();
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            if (!m.group(1).isEmpty()) continue; // an image
            String target = m.group(3);
            if (target.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) continue;
            target = target.replaceAll("[#?].*$", "");
            if (target.isEmpty()) continue;
            Path file = DocsLinksTest.resolve(page, target);
            if (isData(file)) files.add(file);
        }
        return files;
    }

    /** The prose as read: link targets, inline code, HTML tags and emphasis removed (each replaced by spaces). */
    static String plain(String sentence) {
        String s = LINK.matcher(sentence).replaceAll(r -> Matcher.quoteReplacement(r.group(1) + "[" + r.group(2) + "]" + " ".repeat(r.group(3).length() + 2)));
        s = CODE.matcher(s).replaceAll(r -> " ".repeat(r.group().length()));
        return s;
    }

    // ---------------------------------------------------------------------------------------------------------

    /** A number as printed: its text, its value, its decimals, its unit, where it starts. */
    record Num(String text, BigDecimal value, String unit, int start, int end) {}

    /**
     * The numbers of a piece of prose: digits with optional thousands separators ({@code 2,442}) and decimals
     * ({@code 0.96}), each end of a range ({@code 0.96-1.02}) on its own, with a unit right after it ({@code x},
     * {@code %}, {@code ms}, {@code s}, {@code MB}, {@code k}...). Not numbers: digits that are part of a word or an
     * identifier (seed004, P10, p99, 2xx, JDK-8329593, #14330, x86_64), parameters ({@code c=50}), pool specs
     * ({@code qtp:4} outside code too), versions and dates ({@code 25.0.3}, {@code 2026-11-26}), ordinals (1st).
     */
    static List<Num> numbers(String text) {
        List<Num> out = new ArrayList<>();
        Matcher dates = Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?Z?)?\\b|\\b\\d+\\.\\d+\\.\\d+\\b|\\b\\d{1,2}:\\d{2}\\b").matcher(text);
        List<int[]> masked = new ArrayList<>();
        while (dates.find()) masked.add(new int[] {dates.start(), dates.end()});
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            int s = m.start(), e = m.end();
            boolean inMask = false;
            for (int[] r : masked) if (s >= r[0] && s < r[1]) inMask = true;
            if (inMask) continue;
            char before = s > 0 ? text.charAt(s - 1) : ' ';
            char before2 = s > 1 ? text.charAt(s - 2) : ' ';
            if (Character.isLetter(before) || before == '_' || before == '#' || before == '=' || before == ':' || before == '/' || before == '$' || before == '~') continue;
            if (before == '-' && Character.isLetter(before2)) continue; // JDK-8329593, UTF-8
            if (before == '.' && Character.isLetterOrDigit(before2)) continue;
            String rest = text.substring(e);
            Matcher u = UNIT.matcher(rest);
            String unit = u.lookingAt() ? u.group(1) : "";
            int end = e + (u.lookingAt() ? u.end() : 0);
            if (unit.isEmpty() && !rest.isEmpty() && (Character.isLetterOrDigit(rest.charAt(0)) || rest.charAt(0) == '_')) continue;
            if (unit.isEmpty() && rest.startsWith(":") && rest.length() > 1 && Character.isDigit(rest.charAt(1))) continue;
            if (rest.matches("^(?:st|nd|rd|th)\\b.*")) continue;
            if (unit.isEmpty()) { // the first end of a range takes the second's unit: 705-714 MiB
                Matcher r = RANGE_END.matcher(rest);
                if (r.lookingAt()) unit = r.group(1);
            }
            String digits = m.group().replace(",", "");
            out.add(new Num(m.group(), new BigDecimal(digits), unit, s, end));
        }
        return out;
    }

    static final Pattern NUMBER = Pattern.compile("\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?");
    static final Pattern RANGE_END = Pattern.compile("-[\\d,]+(?:\\.\\d+)?\\s?(x|%|ms|s|MB|GB|KB|kB|MiB|GiB|KiB|k)(?![\\p{L}\\p{N}_])");
    static final Pattern UNIT = Pattern.compile("\\s?(x|%|ms|s|MB|GB|KB|kB|MiB|GiB|KiB|k)(?![\\p{L}\\p{N}_])");

    static String allowed(String text, Num n) {
        for (Allowed a : ALLOWED) {
            Matcher m = a.pattern().matcher(text);
            while (m.find()) if (m.start() <= n.start() && n.start() < m.end()) return a.why();
        }
        return null;
    }

    static String around(String text, Num n) {
        int from = Math.max(0, n.start() - 60), to = Math.min(text.length(), n.end() + 40);
        return (from > 0 ? "..." : "") + text.substring(from, to).replaceAll("\\s+", " ").strip() + (to < text.length() ? "..." : "");
    }

    // ---------------------------------------------------------------------------------------------------------

    static final Map<String, List<BigDecimal>> VALUES = new HashMap<>();

    /** Whether a file's text holds a value that prints as the prose's number. */
    static boolean holds(String data, Num n) {
        List<BigDecimal> values;
        synchronized (VALUES) { values = VALUES.computeIfAbsent(data, ProseNumbersTest::values); }
        for (BigDecimal v : values) if (matches(v, n)) return true;
        return false;
    }

    static final Pattern HEX = Pattern.compile("\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,64}\\b");
    static final Pattern PLAIN_NUMBER = Pattern.compile("(?<![\\d.])-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");
    static final Pattern GROUPED_NUMBER = Pattern.compile("(?<![\\d,.])\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?(?![\\d,])");

    /** Every number a file holds: plain ones, and (outside a CSV's commas) ones with thousands separators. */
    static List<BigDecimal> values(String data) {
        data = HEX.matcher(data).replaceAll(" "); // a commit's digits are not figures
        Set<BigDecimal> values = new TreeSet<>();
        Matcher m = PLAIN_NUMBER.matcher(data);
        while (m.find()) {
            try { values.add(new BigDecimal(m.group())); } catch (NumberFormatException ignored) { }
        }
        m = GROUPED_NUMBER.matcher(data);
        while (m.find()) values.add(new BigDecimal(m.group().replace(",", "")));
        return new ArrayList<>(values);
    }

    /**
     * Whether a file's value v prints as the prose's number: v rounded to the prose's decimals equals it (1.6874
     * prints as 1.69 and as 1.7); a whole number with trailing zeros is rounded to them, keeping two significant
     * digits (18,432 prints as 18,400, 19,000 as 19,000); a percentage may be a fraction in the file (0.451 prints
     * as 45 %), seconds may be milliseconds there (15,528 ms prints as 15.5 s), MB and GB may be KB or MB, and
     * {@code k} is thousands.
     */
    static boolean matches(BigDecimal v, Num n) {
        BigDecimal p = n.value();
        if (n.unit().equals("k")) p = p.multiply(BigDecimal.valueOf(1000));
        List<BigDecimal> candidates = new ArrayList<>(List.of(v, v.abs()));
        switch (n.unit()) {
            case "%" -> candidates.add(v.multiply(BigDecimal.valueOf(100)));
            case "s" -> candidates.add(v.movePointLeft(3));
            case "MB", "GB", "KB", "kB", "MiB", "GiB", "KiB" -> {
                for (BigDecimal d : List.of(BigDecimal.valueOf(1024), BigDecimal.valueOf(1000))) {
                    candidates.add(v.divide(d, 12, RoundingMode.HALF_EVEN));
                    candidates.add(v.divide(d.multiply(d), 12, RoundingMode.HALF_EVEN));
                }
            }
            default -> { }
        }
        int scale = Math.max(0, n.text().contains(".") ? n.text().length() - n.text().indexOf('.') - 1 : 0);
        if (scale == 0) {
            String digits = p.toBigInteger().toString();
            int zeros = digits.length() - digits.replaceAll("0+$", "").length();
            scale = -Math.min(zeros, Math.max(0, digits.length() - 2));
        }
        for (BigDecimal c : candidates) {
            if (c.setScale(scale, RoundingMode.HALF_UP).compareTo(p.setScale(scale, RoundingMode.HALF_UP)) == 0) return true;
            if (c.setScale(scale, RoundingMode.HALF_EVEN).compareTo(p.setScale(scale, RoundingMode.HALF_UP)) == 0) return true;
        }
        return false;
    }

    /** An earlier commit's file through {@code git show}, other files as {@link #readData} reads them. */
    static Function<Path, String> withGit(Path git) {
        return file -> {
            if (!file.startsWith("git-show")) return readData(file);
            String rev = file.getName(1).toString(), path = file.subpath(2, file.getNameCount()).toString().replace('\\', '/');
            try {
                Process p = new ProcessBuilder(git.toString(), "show", rev + ":" + path).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                if (p.waitFor() != 0) throw new IOException("git show " + rev + ":" + path + " failed: " + out.strip());
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        };
    }

    /** A committed data file's text (a directory's data files joined); null for an earlier commit's file. */
    static String readData(Path file) {
        if (file.startsWith("git-show")) return null;
        try {
            if (Files.isDirectory(file)) {
                StringBuilder all = new StringBuilder();
                try (Stream<Path> s = Files.walk(file)) {
                    for (Path f : s.filter(Files::isRegularFile).filter(ProseNumbersTest::isData).sorted().toList()) all.append(Files.readString(f)).append('\n');
                }
                return all.toString();
            }
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
