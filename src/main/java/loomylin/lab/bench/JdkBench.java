package loomylin.lab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import loomylin.lab.engine.measure.FlightRecording;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.BenchConfig;
import loomylin.lab.engine.run.ServerJava;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;

/**
 * {@code bench --preset jdk}: the same servers on two JDKs, the bench's own (25 here) and the one {@code --java}
 * names (a JDK 21: {@code scripts/jdk21.sh} prints one), at endpoints that pin a virtual thread's carrier on
 * JDK 21 and those that do not: a 100 ms blocking wait inside {@code synchronized}, the same handed to a platform
 * thread ({@code on=platform}), under a {@code ReentrantLock}, and with no lock ({@code /wait-locked},
 * {@code /wait-blocking}), on {@code loom}, Jetty's preferred shape and
 * a fixed {@code QueuedThreadPool} of 200 threads (Jetty's default maximum, pre-started). Each JDK is one plan of the bench (closed loop, windows that
 * can decide, repeats interleaved, {@code --jfr} for the pins of every run, counted and timed) written to its own
 * directory with its own provenance; {@code jdk.md} sets the two side by side.
 */
public final class JdkBench {
    public static final String NAME = "jdk";
    public static final Set<String> FLAGS = Set.of("preset", "java", "pools", "endpoints", "concurrency", "repeat", "measure", "warmup", "twin", "heap",
            "wrk", "out", "rerender", "carriers", "invocations", "help");
    public static final List<String> POOLS = List.of("loom", "qtp-vtp:8:200", "qtp:200");
    public static final List<String> ENDPOINTS = List.of("wait-locked?ms=100&lock=synchronized", "wait-locked?ms=100&lock=synchronized&on=platform",
            "wait-locked?ms=100&lock=reentrant", "wait-blocking?ms=100");
    /** Clients: on 2 carriers, a pinned 100 ms wait caps loom near 2 / 0.1 s = 20 req/s, where 200 clients could make 2,000. */
    public static final int CONCURRENCY = 200;
    public static final int REPEAT = 2;
    public static final String REPORT = "jdk.md";

    private JdkBench() {
    }

    /**
     * The flags {@code --preset jdk} reads, read once: the other JDK, and the plan both sides run (a closed-loop bench
     * of {@code --pools}, {@code --endpoints}, {@code --concurrency} and {@code --repeat} with JFR, parsed as
     * {@link BenchFlags} parses any bench), written under {@code dir}; {@code other} is null when only re-rendering.
     */
    record Options(boolean rerender, Path dir, ServerJava other, BenchConfig plan) {
        static Options of(Flags flags) {
            Path dir = Path.of(flags.get("out")).toAbsolutePath();
            if (flags.on("rerender")) return new Options(true, dir, null, null);
            if (flags.get(BenchFlags.JAVA) == null)
                throw new UsageError("--preset jdk compares the bench's own JDK with another: give --java PATH, e.g. a JDK 21's bin/java (scripts/jdk21.sh prints one)");
            ServerJava other = ServerJava.choose(flags.get(BenchFlags.JAVA));
            return new Options(false, dir, other, BenchFlags.parse(Flags.parse(planArgs(flags, dir), BenchFlags.FLAGS, Map.of())));
        }
    }

    /**
     * The flags of the plan each side runs, a plain bench's: also how {@code bench --rerender} reads a side's directory
     * back from its provenance's {@code --preset jdk} command.
     */
    static String[] planArgs(Flags flags, Path dir) {
        List<String> args = new ArrayList<>(List.of("--pools", String.join(",", flags.commaList("pools", POOLS)), "--endpoints",
                String.join(",", flags.commaList("endpoints", ENDPOINTS)), "--concurrency", orElse(flags, "concurrency", CONCURRENCY),
                "--repeat", orElse(flags, "repeat", REPEAT), "--jfr", "--out", dir.toString()));
        for (String f : List.of("measure", "warmup", "twin", "heap", "wrk", "carriers", "invocations")) if (flags.get(f) != null) args.addAll(List.of("--" + f, flags.get(f)));
        return args.toArray(String[]::new);
    }

    private static String orElse(Flags flags, String name, int fallback) {
        return flags.get(name) == null ? Integer.toString(fallback) : flags.get(name);
    }

    public static Path run(Flags flags, String commandLine, PrintStream out) {
        return run(Options.of(flags), commandLine, out);
    }

    static Path run(Options o, String commandLine, PrintStream out) {
        Path dir = o.dir();
        if (o.rerender()) return rerender(dir, out);
        ServerJava other = o.other();
        ServerJava own = ServerJava.bench();
        if (other.version().equals(own.version()))
            out.println("bench: --java is the bench's own JDK (" + own.version() + "): both sides run the same JDK");
        boolean same = shortVersion(other).equals(shortVersion(own));
        List<Side> sides = List.of(new Side(other, dir.resolve("jdk-" + shortVersion(other) + (same ? "-java" : ""))),
                new Side(own, dir.resolve("jdk-" + shortVersion(own) + (same ? "-bench" : ""))));
        for (Side side : sides) {
            ServerJava.choose(side.java().command());
            out.printf("bench: preset %s, servers on %s -> %s%n", NAME, side.java().described(), side.dir());
            Bench.run(o.plan().withOut(side.dir()), commandLine + " (servers on " + side.java().command() + ")", out);
        }
        try {
            Files.writeString(dir.resolve(REPORT), report(commandLine, sides.stream().map(Side::dir).toList()));
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
        out.printf("bench: done; %s%n", dir.resolve(REPORT));
        return dir;
    }

    /** {@code --rerender}: jdk.md written again from the sides' directories under {@code dir}, measuring nothing. */
    static Path rerender(Path dir, PrintStream out) {
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            List<Path> sides = s.filter(p -> Files.isRegularFile(p.resolve("results.csv"))).sorted().toList();
            if (sides.isEmpty()) throw new UsageError("--rerender: no JDK's results.csv under " + dir);
            Files.writeString(dir.resolve(REPORT), report("java -jar loomylin.jar bench --preset jdk --rerender --out " + dir.getFileName()
                    + " (the runs' commands are in each directory's provenance.json)", sides));
            out.printf("bench: written again; %s%n", dir.resolve(REPORT));
            return dir;
        } catch (IOException e) {
            throw new StartupFailure("bench: " + e.getMessage());
        }
    }

    /** 21.0.8+9-LTS -> 21.0.8: a directory name. */
    static String shortVersion(ServerJava java) {
        return java.version().replaceAll("[+-].*", "").replaceAll("[^0-9.]", "");
    }

    /** One JDK's plan: its java and where its results went. */
    record Side(ServerJava java, Path dir) {
    }


    /**
     * The JDKs side by side: per endpoint and pool, each one's median req/s and p99, its pins counted and timed, and the
     * ratio of the rates. Medians over the runs that decide; where none did (a collapse leaves too few answers to
     * decide anything), "not decided" with the marks, and no median and no ratio.
     */
    static String report(String commandLine, List<Path> sides) throws IOException {
        List<List<RunResult>> results = new ArrayList<>();
        List<String> jdks = new ArrayList<>();
        for (Path s : sides) {
            results.add(read(s.resolve("results.csv")));
            Map<?, ?> provenance = Files.isRegularFile(s.resolve("provenance.json"))
                    ? (Map<?, ?>) loomylin.server.json.Json.parse(Files.readString(s.resolve("provenance.json"))) : Map.of();
            jdks.add(String.valueOf(provenance.get("jdk")).replaceAll(";.*", ""));
        }
        StringBuilder md = new StringBuilder("# The same servers on two JDKs\n\nCommand: `").append(commandLine).append("`. Each JDK's runs, report and ")
                .append("provenance are in its directory: ");
        for (int i = 0; i < sides.size(); i++) md.append('[').append(jdks.get(i)).append("](").append(sides.get(i).getFileName()).append("/report.md) ");
        md.append("\n\nMedians over the runs that decide (settled, not too short, not client-limited); where none did, *not decided* with")
                .append(" the marks, and no median or ratio (a collapse leaves too few answers to decide anything). Pinned: the times a virtual thread blocked while")
                .append(" pinned to its carrier, every pin however short, and pinned s how long they held their carriers so, each summed over the runs'")
                .append(" flight recordings (`jfr.csv`; \"-\" where a recording did not time them).\n\n| endpoint | pool |");
        for (Path s : sides) md.append(' ').append(s.getFileName()).append(" req/s | p99 ms | pinned | pinned s |");
        md.append(" req/s ratio |\n|---|---|").append("--:|--:|--:|--:|".repeat(sides.size())).append("--:|\n");
        Set<String> keys = new LinkedHashSet<>();
        for (List<RunResult> rs : results) for (RunResult r : rs) keys.add(r.spec().endpoint() + "\t" + r.spec().pool());
        for (String key : keys) {
            String[] k = key.split("\t");
            md.append("| `/").append(k[0]).append("` | `").append(k[1]).append("` |");
            List<Double> rates = new ArrayList<>();
            for (int i = 0; i < sides.size(); i++) {
                List<RunResult> cell = results.get(i).stream().filter(r -> (r.spec().endpoint() + "\t" + r.spec().pool()).equals(key)).toList();
                List<RunResult> deciding = cell.stream().filter(r -> r.marks().isEmpty()).toList();
                double rps = median(deciding.stream().mapToDouble(RunResult::rps).toArray());
                double p99 = median(deciding.stream().mapToDouble(RunResult::p99Ms).toArray());
                rates.add(rps);
                String rate = deciding.isEmpty() ? (cell.isEmpty() ? "-" : "not decided (" + marks(cell) + ")") : RunResult.fixed(rps, 1);
                md.append(' ').append(rate).append(" | ").append(Double.isNaN(p99) ? "-" : RunResult.fixed(p99, 0))
                        .append(" | ").append(pinned(sides.get(i), cell)).append(" |");
            }
            double ratio = rates.size() == 2 && rates.get(0) > 0 && rates.get(1) > 0 ? rates.get(0) / rates.get(1) : Double.NaN; // NaN: a side not decided
            md.append(' ').append(Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.3fx", ratio)).append(" |\n");
        }
        return md.toString();
    }

    /** Why no run of a cell decides: its runs' marks, each once. */
    private static String marks(List<RunResult> cell) {
        return String.join(", ", cell.stream().flatMap(r -> r.marks().stream()).distinct().toList());
    }

    private static List<RunResult> read(Path csv) throws IOException {
        if (!Files.isRegularFile(csv)) return List.of();
        return RunResult.TABLE.read(csv).stream().filter(r -> !Double.isNaN(r.rps())).toList();
    }

    /**
     * The pinned count and seconds of these runs from the side's jfr.csv (its run column starts with pool and endpoint,
     * RunSpec.describe), as two cells; "-" where it has none.
     */
    private static String pinned(Path dir, List<RunResult> cell) throws IOException {
        long count = 0;
        double ms = 0;
        boolean counted = false;
        boolean timed = true;
        if (!cell.isEmpty()) {
            RunResult first = cell.getFirst();
            for (Map<String, String> f : FlightRecording.readCsv(dir.resolve(FlightRecording.CSV))) {
                if (!f.getOrDefault("run", "").startsWith(first.spec().pool() + " " + first.spec().endpoint() + " ") || f.getOrDefault("pinned", "").isEmpty()) continue;
                count += Long.parseLong(f.get("pinned"));
                counted = true;
                String t = f.getOrDefault("pinned_ms", "");
                if (t.isEmpty()) timed = false;
                else ms += Double.parseDouble(t);
            }
        }
        return (counted ? Long.toString(count) : "-") + " | " + (counted && timed ? RunResult.fixed(ms / 1000, 1) : "-");
    }

    static double median(double[] v) {
        return loomylin.lab.engine.output.Spread.of(java.util.Arrays.stream(v).boxed().toList()).median();
    }
}
