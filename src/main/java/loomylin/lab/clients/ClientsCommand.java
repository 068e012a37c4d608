package loomylin.lab.clients;

import java.net.InetAddress;
import java.nio.channels.SocketChannel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import loomylin.server.cli.Flags;
import loomylin.server.cli.StartupFailure;
import loomylin.server.cli.UsageError;
import loomylin.server.json.Json;
import loomylin.server.proc.ProcLimits;
import loomylin.server.web.Params;

/**
 * {@code java -jar loomylin.jar clients --model nio|threads|virtual ...}: the echo seed's experiment over HTTP.
 * Opens every connection first, then for the duration each connection sends its next keep-alive request as soon
 * as its answer arrives; after the duration, requests in flight finish. Throughput = completed / elapsed.
 * Prints one summary line, or one JSON object with {@code --format json}; its CPU time is the whole process's
 * during the measured period (opening the connections is not in it).
 */
public final class ClientsCommand {
    private ClientsCommand() {
    }

    static final List<Flags.Flag> FLAGS = List.of(
            new Flags.Flag("model", "nio|threads|virtual", null, "one selector thread for all connections, a platform thread each, or a virtual thread each"),
            new Flags.Flag("connections", "N", "1000", "persistent HTTP/1.1 connections, all opened before the measured period"),
            new Flags.Flag("duration", "S", "10", "measured seconds; requests in flight at the end still finish"),
            new Flags.Flag("target", "URL", "http://127.0.0.1:7003/echo", "what every connection GETs over and over (the backend's /echo answers after 1 s)"),
            new Flags.Flag("source-addresses", "A-B,C,...", "", "bind connections to these local addresses in turn, for more connections than one address has ports"),
            new Flags.Flag("drain-timeout", "S", "30", "after the duration, wait this long at most for requests in flight"),
            new Flags.Flag("format", "text|json", "text", "one summary line, or one JSON object"),
            new Flags.Flag("help", null, null, "print this help and exit"));

    public static void main(String[] args) {
        Flags flags = Flags.parse(args, FLAGS, System.getenv());
        if (flags.help()) {
            System.out.print("Usage: java -jar loomylin.jar clients --model nio|threads|virtual [flags]\n\n" + Flags.describe(FLAGS));
            return;
        }
        Options o = Options.of(flags);
        ConnectionLimits.check(o.connections(), o.sources().size(), ProcLimits.SELF, ProcLimits.PORT_RANGE);

        Map<String, Object> result;
        try {
            result = run(o.model(), o.connections(), o.durationS(), o.drainS(), o.target(), o.sources());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupFailure("interrupted");
        }
        System.out.println(o.json() ? Json.write(result) : summary(result));
    }

    /** The command's flags, read once: the client model, how many connections for how long, the target, the source addresses, the output. */
    record Options(String model, int connections, int durationS, int drainS, Target target, List<InetAddress> sources, boolean json) {
        static Options of(Flags flags) {
            String model = flags.get("model");
            if (model == null || !Model.NAMES.contains(model))
                throw new UsageError("--model must be one of " + String.join(", ", Model.NAMES) + ", got '" + Params.printable(String.valueOf(model)) + "'");
            int connections = flags.integer("connections", 1, 1_000_000);
            int duration = flags.integer("duration", 1, 86_400);
            int drain = flags.integer("drain-timeout", 1, 3_600);
            String format = flags.get("format");
            if (!format.equals("text") && !format.equals("json"))
                throw new UsageError("--format must be text or json, got '" + Params.printable(format) + "'");
            return new Options(model, connections, duration, drain, Target.parse(flags.get("target")), SourceAddresses.parse(flags.get("source-addresses")),
                    format.equals("json"));
        }
    }

    /** Opens, drives and measures; the figures by name, in the order the summary prints them. */
    static Map<String, Object> run(String modelName, int count, int durationS, int drainS, Target target, List<InetAddress> sources)
            throws InterruptedException {
        long connectStart = System.nanoTime();
        List<SocketChannel> channels = Connections.open(target, count, sources);
        double connectS = (System.nanoTime() - connectStart) / 1e9;
        Run run = new Run(count);
        try (Model model = Model.named(modelName)) {
            model.prepare(channels, target, run);
            long start = System.nanoTime();
            long cpuStart = cpuNanos();
            run.go();
            Thread.sleep(durationS * 1000L);
            run.stop();
            run.awaitEnded(drainS * 1000L);
            double elapsedS = (System.nanoTime() - start) / 1e9;
            double cpuS = (cpuNanos() - cpuStart) / 1e9;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("model", modelName);
            r.put("connections", count);
            r.put("connectSeconds", round(connectS));
            r.put("durationSeconds", durationS);
            r.put("elapsedSeconds", round(elapsedS));
            r.put("completed", run.completed());
            r.put("throughput", round(run.completed() / elapsedS));
            r.put("cpuSeconds", round(cpuS));
            r.put("failed", run.failed());
            r.put("lost", run.lost());
            r.put("unfinished", run.unfinished());
            r.put("firstLoss", run.firstLoss());
            return r;
        } finally {
            Connections.closeAll(channels);
        }
    }

    static String summary(Map<String, Object> r) {
        String line = String.format(Locale.ROOT, "clients %s: %d connections (opened in %.2f s), %d completed in %.2f s = %.1f req/s, %.2f s CPU; %d non-2xx, %d connections lost, %d unfinished",
                r.get("model"), (Integer) r.get("connections"), (Double) r.get("connectSeconds"), (Long) r.get("completed"),
                (Double) r.get("elapsedSeconds"), (Double) r.get("throughput"), (Double) r.get("cpuSeconds"), (Long) r.get("failed"), (Integer) r.get("lost"), (Long) r.get("unfinished"));
        return r.get("firstLoss") == null ? line : line + " (first loss: " + r.get("firstLoss") + ")";
    }

    /** CPU time of this whole process (every thread, JIT and GC included), or 0 where the OS does not say. */
    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
