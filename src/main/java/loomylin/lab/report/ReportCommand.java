package loomylin.lab.report;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;

/**
 * {@code report [--check] [--root DIR]}: re-renders the generated sections of README.md and docs/**.md from the
 * committed result files under gfx/results. With {@code --check} it writes nothing and fails (exit 1), naming
 * each stale page and section, when a page differs from what the files give.
 */
public final class ReportCommand {
    static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("check", null, null, "write nothing; fail (exit 1), naming each stale page and section, when a page differs from gfx/results"),
            new Flags.Flag("root", "DIR", ".", "the repository whose pages and gfx/results to read"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    /** The command's flags, read once. */
    record Options(boolean check, Path root) {
        static Options of(Flags flags) {
            return new Options(flags.on("check"), Path.of(flags.get("root")));
        }
    }

    private ReportCommand() {
    }

    public static void main(String[] args) {
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print("Usage: java -jar loomylin.jar report [flags]: re-render README.md's and docs/**.md's generated sections from gfx/results/**\n\n"
                    + Flags.describe(FLAGS));
            return;
        }
        Options o = Options.of(flags);
        run(o.root(), o.check(), System.out);
    }

    /** Renders (or checks) the pages under root, printing one line per page it writes or finds stale. */
    static void run(Path root, boolean check, PrintStream out) {
        if (!Files.isRegularFile(root.resolve("README.md")) || !Files.isDirectory(root.resolve("gfx/results")))
            throw new StartupFailure("report: " + root.toAbsolutePath().normalize() + " has no README.md and gfx/results: run it in the repository (or give --root)");
        List<Report.Stale> stale;
        try {
            Report report = new Report(root, Renderers.all());
            stale = check ? report.stale() : report.write();
        } catch (ReportError e) {
            throw new StartupFailure("report: " + e.getMessage());
        } catch (UncheckedIOException | NumberFormatException e) {
            throw new StartupFailure("report: cannot read the pages or result files: " + e.getMessage());
        }
        if (check && !stale.isEmpty()) {
            StringBuilder names = new StringBuilder();
            for (Report.Stale s : stale) names.append(names.isEmpty() ? "" : "; ").append(s.page()).append(" (").append(String.join(", ", s.sections())).append(')');
            throw new StartupFailure("report --check: stale, differs from gfx/results: " + names + "; run: java -jar target/loomylin.jar report");
        }
        if (stale.isEmpty()) out.println("report: every page is up to date with gfx/results");
        for (Report.Stale s : stale) out.println("report: rendered " + s.page() + " (" + String.join(", ", s.sections()) + ")");
    }
}
