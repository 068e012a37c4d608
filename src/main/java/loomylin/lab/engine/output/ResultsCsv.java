package loomylin.lab.engine.output;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import loomylin.lab.engine.run.RunResult;

/**
 * results.csv, written as the bench goes: the header first, then each run's row as soon as the run ends and
 * flushed at once, so that a bench that fails or is stopped halfway keeps the runs it finished.
 */
public final class ResultsCsv implements AutoCloseable {
    private final BufferedWriter out;

    private ResultsCsv(BufferedWriter out) {
        this.out = out;
    }

    /** Starts the file afresh: the rows of an earlier bench in the same directory are replaced. */
    public static ResultsCsv create(Path file) throws IOException {
        ResultsCsv csv = new ResultsCsv(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        csv.line(RunResult.TABLE.header());
        return csv;
    }

    public void append(RunResult row) throws IOException {
        line(RunResult.TABLE.line(row));
    }

    private void line(String text) throws IOException {
        out.write(text);
        out.write('\n');
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
