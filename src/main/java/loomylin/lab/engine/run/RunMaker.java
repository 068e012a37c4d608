package loomylin.lab.engine.run;

import java.io.IOException;

/** Makes one measured run of the plan: {@link RunExecutor} on a server JVM it starts, {@link RemoteRunExecutor} on a target. */
public interface RunMaker {
    public RunResult execute(RunSpec run) throws IOException, InterruptedException;
}
