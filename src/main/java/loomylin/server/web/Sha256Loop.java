package loomylin.server.web;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The CPU part of /mixed, as the fibers-server seed measured it: {@code iterations} SHA-256 digests of a
 * 256-byte block, each digest written over the block's first 32 bytes so every round depends on the last.
 */
public final class Sha256Loop {
    private Sha256Loop() {
    }

    /** Runs the loop; returns the first 8 bytes of the last digest in hex (all zeros for 0 iterations). */
    public static String run(int iterations) {
        byte[] block = new byte[256];
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < iterations; i++) {
                sha.update(block);
                sha.digest(block, 0, 32);
            }
        } catch (NoSuchAlgorithmException | DigestException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        return HexFormat.of().formatHex(block, 0, 8);
    }
}
