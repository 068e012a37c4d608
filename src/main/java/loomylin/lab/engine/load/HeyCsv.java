package loomylin.lab.engine.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.Arrays;
import loomylin.lab.engine.measure.Percentiles;

/**
 * Reads hey's per-request output ({@code -o csv}): a header, then one line per response it received, with
 * times in seconds: {@code response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset}.
 * {@code offset} is when the request started, counted from the start of the run.
 *
 * <p>hey writes no line for a request that got no response (refused, reset, timed out): those show only as
 * fewer lines than requests. Any HTTP status does get a line.
 */
public final class HeyCsv {
    private HeyCsv() {
    }

    public static final String HEADER = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset";

    /**
     * What came back.
     *
     * @param latenciesMs every response's time in milliseconds, ascending
     * @param ok          responses with a 2xx status
     * @param spanS       from the first request's start to the last response's end: the run's duration as
     *                    the requests saw it, without hey's own start-up and exit
     */
    public record Responses(double[] latenciesMs, int ok, double spanS) {
        public int count() {
            return latenciesMs.length;
        }

        public double percentileMs(double p) {
            return Percentiles.of(latenciesMs, p);
        }
    }

    public static final class Malformed extends RuntimeException {
        Malformed(String message) {
            super(message);
        }
    }

    public static Responses parse(BufferedReader in) throws IOException {
        String header = in.readLine();
        if (header == null) throw new Malformed("hey printed nothing (expected the CSV header)");
        if (!header.strip().equals(HEADER)) throw new Malformed("unexpected hey CSV header: " + abbreviate(header));
        double[] latencies = new double[1024];
        int n = 0;
        int ok = 0;
        double first = Double.POSITIVE_INFINITY;
        double last = 0;
        int lineNo = 1;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            lineNo++;
            if (line.isBlank()) continue;
            String[] f = line.split(",");
            if (f.length != 8) throw new Malformed("line " + lineNo + " of hey's CSV has " + f.length + " fields: " + abbreviate(line));
            double responseS;
            int status;
            double offsetS;
            try {
                responseS = Double.parseDouble(f[0]);
                status = Integer.parseInt(f[6].strip());
                offsetS = Double.parseDouble(f[7]);
            } catch (NumberFormatException e) {
                throw new Malformed("line " + lineNo + " of hey's CSV is not numbers: " + abbreviate(line));
            }
            if (n == latencies.length) latencies = Arrays.copyOf(latencies, n * 2);
            latencies[n++] = responseS * 1000.0;
            if (status >= 200 && status < 300) ok++;
            first = Math.min(first, offsetS);
            last = Math.max(last, offsetS + responseS);
        }
        double[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        return new Responses(sorted, ok, n == 0 ? 0 : last - first);
    }

    private static String abbreviate(String line) {
        return line.length() > 120 ? line.substring(0, 120) + "..." : line;
    }
}
