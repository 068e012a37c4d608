package loomylin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import loomylin.server.cli.DataFile;

/** One small data file for every in-process test server, made on first use and deleted when the test JVM exits. */
public final class TestData {
    public static final int BYTES = 1024 * 1024;
    private static DataFile file;

    private TestData() {
    }

    public static synchronized DataFile file() {
        if (file == null) {
            DataFile made = DataFile.create(null, BYTES);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    made.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
            file = made;
        }
        return file;
    }
}
