package loomylin.server.agent;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** What the test applications' routes do besides waiting, and how they say which thread served them. */
public final class AppWork {
    private AppWork() {
    }

    /** {@code rounds} SHA-256 digests, each of the one before: CPU work, no waiting. */
    public static String compute(int rounds) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] d = "seed".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < rounds; i++) d = sha.digest(d);
            return String.format("%02x", d[0]);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The answer of every route: {@code virtual=BOOL thread=NAME} of the thread that ran it. */
    public static String thread() {
        Thread t = Thread.currentThread();
        return "virtual=" + t.isVirtual() + " thread=" + t.getName() + "\n";
    }

    /** A query parameter as a number, or its default. */
    public static int number(String value, int otherwise) {
        return value == null || value.isBlank() ? otherwise : Integer.parseInt(value.strip());
    }
}
