package loomylin.server.web;

import io.javalin.http.Context;

/**
 * What one /mixed or /mixed-async request asks for, validated before any of it runs: {@code cpu} SHA-256
 * iterations, a wait of {@code sleep} ms, and the first {@code file} bytes of the data file. With {@code calls}
 * at 0 the wait is a sleep (a timer, for /mixed-async); with {@code calls} N it is N consecutive calls to the
 * backend's /echo whose delays add up to {@code sleep}: a wait on a socket, as a database or downstream call waits.
 */
public record MixedWork(int cpu, int sleepMs, int fileBytes, int calls) {

    /** The header that carries {@link Sha256Loop#run}'s result, so the CPU work is observable. */
    public static final String DIGEST_HEADER = "X-Sha256";

    /** Reads the four parameters strictly; {@code file} may not exceed the data file's {@code fileMax} bytes. */
    public static MixedWork of(Context ctx, int fileMax) {
        int cpu = Params.integer(ctx.queryParams("cpu"), "cpu", Limits.CPU_DEFAULT, 0, Limits.CPU_MAX);
        int sleep = Params.integer(ctx.queryParams("sleep"), "sleep", Limits.SLEEP_DEFAULT, 0, Limits.MS_MAX);
        int file = Params.integer(ctx.queryParams("file"), "file", Math.min(Limits.FILE_DEFAULT, fileMax), 0, fileMax);
        int calls = Params.integer(ctx.queryParams("calls"), "calls", 0, 0, Limits.CALLS_MAX);
        return new MixedWork(cpu, sleep, file, calls);
    }

    /** The delay of backend call {@code i} (from 0) of {@link #calls}: equal shares of the wait, the remainder to the first ones. */
    public int callDelayMs(int i) {
        return sleepMs / calls + (i < sleepMs % calls ? 1 : 0);
    }
}
