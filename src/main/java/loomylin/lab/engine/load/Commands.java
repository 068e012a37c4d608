package loomylin.lab.engine.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short informational command (dpkg-query, ...) and keeps its first line; anything going wrong gives "". */
public final class Commands {
    private Commands() {
    }

    public static String firstLine(List<String> command) {
        return firstLine(command, false);
    }

    /** The first line it prints, whatever its exit status when {@code anyExit} (wrk -v prints its version and exits 1). */
    public static String firstLine(List<String> command, boolean anyExit) {
        Process p = null;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            byte[] out = p.getInputStream().readNBytes(4096);
            if (!p.waitFor(5, TimeUnit.SECONDS) || (!anyExit && p.exitValue() != 0)) return "";
            String text = new String(out, StandardCharsets.UTF_8).strip();
            int nl = text.indexOf('\n');
            return nl < 0 ? text : text.substring(0, nl).strip();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } finally {
            if (p != null && p.isAlive()) p.destroyForcibly();
        }
    }
}
