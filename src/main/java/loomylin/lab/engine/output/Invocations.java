package loomylin.lab.engine.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import loomylin.server.cli.UsageError;
import loomylin.server.cli.Csv;

/**
 * Invocations that add up: a bench that writes a row per run to one CSV may be run again with the same
 * {@code --out}, and its rows then join the earlier ones under the next invocation number (its provenance in
 * {@code provenance-N.json}), so that a verdict can rest on runs from two invocations. The CSV's first column is
 * {@code invocation}.
 */
public final class Invocations {
    public static final String COLUMN = "invocation";

    private Invocations() {
    }

    /**
     * The number of this invocation: 1 when {@code csv} is not there yet (it is then created with {@code header}),
     * else one more than the largest already in it.
     *
     * @throws UsageError when {@code csv} holds rows of another shape (another header)
     */
    public static int next(Path csv, String header) throws IOException {
        if (!header.startsWith(COLUMN + ",")) throw new IllegalArgumentException("the header must start with " + COLUMN);
        if (!Files.exists(csv)) {
            Files.writeString(csv, header + "\n", StandardCharsets.UTF_8);
            return 1;
        }
        String text = Files.readString(csv, StandardCharsets.UTF_8);
        if (!text.startsWith(header + "\n"))
            throw new UsageError(csv + " holds results of another shape (its header differs): give a new --out, or move it away");
        return rows(csv).stream().mapToInt(r -> Integer.parseInt(r.get(COLUMN))).max().orElse(0) + 1;
    }

    /** Every row in {@code csv}, by column name. */
    public static List<Map<String, String>> rows(Path csv) throws IOException {
        return Csv.parse(Files.readString(csv, StandardCharsets.UTF_8));
    }

    /**
     * What a re-render keeps of a report written earlier (its title, provenance and description): everything before
     * its first line that starts with {@code bodyStart}.
     *
     * @throws IOException when {@code md} has no such line
     */
    public static String headBefore(Path md, String bodyStart) throws IOException {
        String text = Files.readString(md, StandardCharsets.UTF_8);
        int body = text.indexOf("\n" + bodyStart);
        if (body < 0) throw new IOException(md + " is not this preset's report: no line starting with " + bodyStart);
        return text.substring(0, body + 1);
    }

    /** For a report: whose provenance it shows, and where each invocation's is; "" for the first invocation. */
    public static String provenanceNote(int invocation) {
        if (invocation == 1) return "";
        StringBuilder md = new StringBuilder("This is the provenance of invocation ").append(invocation).append(", the last of ").append(invocation)
                .append("; each invocation's is in its own file: ").append(Provenance.FILE);
        for (int i = 2; i <= invocation; i++) md.append(", ").append(provenanceFile(i));
        return md.append(".\n\n").toString();
    }

    /**
     * For a page written as one invocation ends, from that invocation's runs alone: whose provenance it shows and
     * that its tables are that invocation's, {@code csv} holding every one's; "" for the first invocation.
     */
    public static String oneInvocationNote(int invocation, String csv) {
        if (invocation == 1) return "";
        String note = provenanceNote(invocation);
        return note.substring(0, note.length() - 2) + " The tables below show this invocation's runs only; " + csv + " holds every invocation's.\n\n";
    }

    /** provenance.json for the first invocation, provenance-N.json for the Nth. */
    public static String provenanceFile(int invocation) {
        return invocation == 1 ? Provenance.FILE : "provenance-" + invocation + ".json";
    }
}
