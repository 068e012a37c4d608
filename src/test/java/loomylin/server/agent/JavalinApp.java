package loomylin.server.agent;

import io.javalin.Javalin;

/**
 * An application as Javalin 7's users write it, for {@link AgentTest}: {@code Javalin.create(...).start(port)},
 * which builds Jetty's {@code Server} on Javalin's own pool, knowing nothing of Loomylin. The same routes as
 * {@link EmbeddedJettyApp}: {@code /wait}, {@code /wait-locked}, {@code /compute}, each answering which thread ran it.
 */
public final class JavalinApp {
    private JavalinApp() {
    }

    public static void main(String[] args) throws Exception {
        SlowService downstream = SlowService.start();
        Javalin app = Javalin.create(config -> {
            config.routes.get("/wait", ctx -> {
                downstream.call(AppWork.number(ctx.queryParam("ms"), 50));
                ctx.result(AppWork.thread());
            });
            config.routes.get("/wait-locked", ctx -> {
                Object lock = new Object();
                synchronized (lock) {
                    downstream.call(AppWork.number(ctx.queryParam("ms"), 50));
                }
                ctx.result(AppWork.thread());
            });
            config.routes.get("/compute", ctx -> {
                AppWork.compute(AppWork.number(ctx.queryParam("rounds"), 10_000));
                ctx.result(AppWork.thread());
            });
        }).start(args.length > 0 ? Integer.parseInt(args[0]) : 8080);
        System.out.println("listening on port " + app.port());
    }
}
