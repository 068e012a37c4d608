package loomylin.server.admin;

import io.javalin.http.Context;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import loomylin.server.web.ErrorAnswers;

/**
 * The admin port's race control: {@code POST /race} starts one (one at a time: a second gets 409; bounds
 * broken: 400; only from Loomylin's own page on an allowed address, else 403, because a race makes this
 * process generate load: {@link RaceAccess}),
 * {@code POST /race/stop} stops it, and the last race stays readable until the next.
 */
final class Races implements AutoCloseable {
    private final List<Watched> servers;
    private final String host;
    private final RaceAccess access;
    private final AtomicReference<Race> last = new AtomicReference<>();

    Races(List<Watched> servers, String host, RaceAccess access) {
        this.servers = servers;
        this.host = host;
        this.access = access;
    }

    void start(Context ctx) throws Exception {
        if (!access.mayRace(ctx)) return;
        RaceSpec spec;
        try {
            spec = RaceSpec.from(ctx);
        } catch (Exception e) {
            if (!tooSlow(e)) throw e;
            // Jetty's MinimumDataRateHandler failed the read (--min-body-rate); the unread rest closes the connection
            ErrorAnswers.answer(ctx, 408, "the request body arrived slower than the minimum rate (--min-body-rate)");
            return;
        }
        synchronized (last) {
            Race running = last.get();
            if (running != null && running.running()) {
                ErrorAnswers.answer(ctx, 409, "a race is already running (" + running.spec().target() + ", "
                        + running.spec().concurrency() + " clients per port); stop it first");
                return;
            }
            last.set(Race.start(spec, servers, host));
        }
        ctx.status(201).json(last.get().describe());
    }

    void stop(Context ctx) {
        if (!access.mayRace(ctx)) return;
        Race race = last.get();
        if (race == null || !race.running()) {
            ErrorAnswers.answer(ctx, 409, "no race is running");
            return;
        }
        race.stop();
        ctx.json(race.describe());
    }

    private static boolean tooSlow(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException) return true;
        }
        return false;
    }

    /** The last race; empty (JSON null) before the first. */
    Optional<Map<String, Object>> describe() {
        return Optional.ofNullable(last.get()).map(Race::describe);
    }

    @Override
    public void close() {
        Race race = last.get();
        if (race != null) race.stop();
    }
}
