package loomylin.lab.experiment.advise;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import loomylin.lab.engine.output.Provenance;
import loomylin.lab.engine.result.Table;
import loomylin.lab.engine.run.Endpoint;
import loomylin.lab.engine.run.RunResult;
import loomylin.lab.engine.run.Warmth;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.jetty.PoolKind;

/**
 * {@code advise --rerender --out DIR} for a request profile's directory: advise.md written again from advise.csv and
 * provenance.json alone (the profile and windows from the recorded command, the cores from the recorded machine),
 * measuring nothing; advise.png is kept as drawn.
 */
final class ProfileRerender {
    private static final String COMMAND = "java -jar loomylin.jar advise";
    private static final Pattern CPU = Pattern.compile("[?&]cpu=(\\d+)");

    private ProfileRerender() {
    }

    static Path rerender(Path dir, PrintStream page, PrintStream progress) {
        Path csv = dir.resolve(Advise.CSV);
        Provenance provenance;
        try {
            provenance = Provenance.read(dir);
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageError(dir.resolve(Provenance.FILE) + " cannot be read: " + e.getMessage());
        }
        String command = provenance.command();
        if (!command.startsWith(COMMAND + " ")) throw new UsageError(dir + " holds no advise profile's results: its command is '" + command + "'");
        Advise.Options o = Advise.Options.of(Flags.parse(command.substring(COMMAND.length() + 1).split(" ", -1), Advise.FLAGS, Map.of()));
        List<AdvisePage.Run> runs;
        try {
            runs = table().read(csv);
        } catch (IOException e) {
            throw new StartupFailure("advise: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new UsageError(csv + " cannot be read as advise's results: " + e.getMessage());
        }
        String endpoint = runs.stream().map(r -> r.result() == null ? null : r.result().spec().endpoint().toString()).filter(e -> e != null).findFirst()
                .orElseThrow(() -> new UsageError(csv + " has no run that measured anything"));
        Matcher cpu = CPU.matcher(endpoint);
        double iterationsPerMs = cpu.find() && o.profile().cpuMs() > 0 ? Integer.parseInt(cpu.group(1)) / o.profile().cpuMs() : 0;
        String chart = Files.exists(dir.resolve(Advise.CHART)) ? Advise.CHART : null;
        String text = AdvisePage.render(o.profile(), endpoint, iterationsPerMs, provenance.host().cores(), Advise.pools(o.profile()), runs,
                Advise.windows(o.window(), o.warmup(), o.warmupSlices()), chart)
                + "\nCommand: `" + command + "`; files in " + provenance.out() + " (advise.csv, provenance.json).\n";
        try {
            Files.writeString(dir.resolve(Advise.PAGE), text);
        } catch (IOException e) {
            throw new StartupFailure("advise: " + e.getMessage());
        }
        page.print(text);
        progress.printf("advise: %s written from %d runs in %s%n", dir.resolve(Advise.PAGE), runs.size(), csv);
        return dir;
    }

    /**
     * advise.csv read back: its own columns (the run, the idle JVM's CPU, the warm-up's figures, the failure), then
     * the bench's run columns as results.csv reads them; {@code warm} is the warm-up's, so the run reads none of its own.
     */
    static Table<AdvisePage.Run> table() {
        return new Table<>(List.of(), f -> {
            Map<String, String> by = f.byName();
            PoolKind pool = PoolKind.parse(by.get("pool"));
            int offered = (int) Math.round(Double.parseDouble(by.get("offered_rps")));
            int invocation = Integer.parseInt(by.get("invocation"));
            int round = Integer.parseInt(by.get("run"));
            String failure = by.get("failure");
            if (failure != null && !failure.isBlank()) return new AdvisePage.Run(pool, offered, invocation, round, null, failure, Double.NaN, Warmth.NONE);
            Map<String, String> own = new HashMap<>(by);
            own.remove("warm");
            RunResult r = RunResult.TABLE.reader().apply(new Table.Fields(own));
            String idle = by.get("idle_cpu_ms_per_s");
            return new AdvisePage.Run(pool, offered, invocation, round, r, null, idle == null || idle.isBlank() ? Double.NaN : Double.parseDouble(idle),
                    Warmth.read(f, r.responses(), r.cpuS()));
        });
    }
}
