package loomylin.web;

import io.javalin.http.Context;

/**
 * What one /mixed or /mixed-async request asks for, validated before any of it runs: {@code cpu} SHA-256
 * iterations, a {@code sleep} in ms, and the first {@code file} bytes of the data file.
 */
public record MixedWork(int cpu, int sleepMs, int fileBytes) {

    /** The header that carries {@link Sha256Loop#run}'s result, so the CPU work is observable. */
    public static final String DIGEST_HEADER = "X-Sha256";

    /** Reads the three parameters strictly; {@code file} may not exceed the data file's {@code fileMax} bytes. */
    public static MixedWork of(Context ctx, int fileMax) {
        int cpu = Params.integer(ctx.queryParams("cpu"), "cpu", Limits.CPU_DEFAULT, 0, Limits.CPU_MAX);
        int sleep = Params.integer(ctx.queryParams("sleep"), "sleep", Limits.SLEEP_DEFAULT, 0, Limits.MS_MAX);
        int file = Params.integer(ctx.queryParams("file"), "file", Math.min(Limits.FILE_DEFAULT, fileMax), 0, fileMax);
        return new MixedWork(cpu, sleep, file);
    }
}
